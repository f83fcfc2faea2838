import { createRequire as __agentgateCreateRequire } from 'node:module';
const require = __agentgateCreateRequire(import.meta.url);
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// action/src/main.ts
import { spawnSync } from "node:child_process";
import { chmod, mkdir, rm, stat as stat2, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join as join2, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// src/ci/github.ts
import { constants } from "node:fs";
import { appendFile, open, stat } from "node:fs/promises";

// src/errors.ts
var AgentgateError = class extends Error {
  /** Exit status the CLI uses: 2 for usage errors, 3 for a check that ran and failed, 1 for everything else. */
  exitCode = 1;
  details;
  constructor(message, options = {}) {
    super(message, options.cause === void 0 ? void 0 : { cause: options.cause });
    this.name = new.target.name;
    this.details = options.details ?? {};
  }
  toJSON() {
    const hasDetails = Object.keys(this.details).length > 0;
    return { code: this.code, message: this.message, ...hasDetails ? { details: this.details } : {} };
  }
};
var InvalidArgumentError = class extends AgentgateError {
  code = "INVALID_ARGUMENT";
  exitCode = 2;
};
var WriteFailedError = class extends AgentgateError {
  code = "WRITE_FAILED";
};

// src/fs/random.ts
import { createRequire } from "node:module";
var crypto = null;
function randomBytes(count) {
  crypto ??= createRequire(import.meta.url)("node:crypto");
  return crypto.randomBytes(count);
}
function randomHex(bytes) {
  return randomBytes(bytes).toString("hex");
}

// src/fs/atomic.ts
function errnoOf(cause) {
  const code = cause?.code;
  return typeof code === "string" ? code : cause instanceof Error ? cause.message : String(cause);
}

// src/ci/github.ts
var APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
function formatKeyValues(values, random = randomDelimiter) {
  let out = "";
  for (const [name, raw] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      throw new InvalidArgumentError(`output name ${JSON.stringify(name)} is not valid`);
    const value = raw === null ? "" : String(raw);
    let delimiter = random();
    while (value.includes(delimiter) || name.includes(delimiter)) delimiter = random();
    out += `${name}<<${delimiter}
${value}
${delimiter}
`;
  }
  return out;
}
function randomDelimiter() {
  return `ghadelimiter_${randomHex(16)}`;
}
async function appendKeyValues(file, values) {
  await appendTo(file, formatKeyValues(values));
}
var GITHUB_STEP_SUMMARY_LIMIT = 1024 * 1024;
async function appendStepSummary(file, markdown, limit = GITHUB_STEP_SUMMARY_LIMIT) {
  const used = await stat(file).then(
    (s) => s.size,
    () => 0
  );
  const room = limit - used - (await lineLeftOpen(file, used) ? 1 : 0);
  const section = typeof markdown === "string" ? { text: markdown } : markdown;
  const tries = [["whole", () => section.text]];
  if ("cutTo" in section) tries.push(["cut", () => section.cutTo(room)], ["note", () => section.note]);
  for (const [appended, make] of tries) {
    const text = withNewline(make());
    if (Buffer.byteLength(text, "utf8") > room) continue;
    await appendTo(file, text);
    return appended;
  }
  return "nothing";
}
function withNewline(text) {
  return text.endsWith("\n") ? text : `${text}
`;
}
async function appendPath(file, dir) {
  if (/[\r\n]/.test(dir))
    throw new InvalidArgumentError("a directory with a line break cannot go on $GITHUB_PATH");
  await appendTo(file, `${dir}
`);
}
async function appendTo(file, text) {
  const failed = (cause) => {
    throw appendFailed(file, cause);
  };
  const handle = await open(file, APPEND_FLAGS | constants.O_NONBLOCK, 438).catch(failed);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await appendFile(file, text, "utf8").catch(failed);
      return;
    }
    const lead = await lineLeftOpen(file, stats.size) ? "\n" : "";
    await handle.appendFile(lead + text, "utf8").catch(failed);
  } finally {
    await handle.close();
  }
}
async function lineLeftOpen(file, size) {
  if (size === 0) return false;
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (handle === null) return false;
  try {
    if (!(await handle.stat()).isFile()) return false;
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(1), 0, 1, size - 1);
    return bytesRead === 1 && buffer[0] !== 10;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}
function appendFailed(file, cause) {
  return new WriteFailedError(
    `could not append to ${file} (${errnoOf(cause)}), the file GitHub Actions named for this step; check the variable that names it`,
    { cause, details: { path: file } }
  );
}
function escapeData(text) {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function escapeProperty(text) {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

// node_modules/zod/v4/core/util.js
function getEnumValues(entries) {
  const numericValues = Object.values(entries).filter((v) => typeof v === "number");
  const values = Object.entries(entries).filter(([k, _]) => numericValues.indexOf(+k) === -1).map(([_, v]) => v);
  return values;
}
function joinValues(array2, separator = "|") {
  return array2.map((val) => stringifyPrimitive(val)).join(separator);
}
function jsonStringifyReplacer(_, value) {
  if (typeof value === "bigint")
    return value.toString();
  return value;
}
var Cached = class {
  constructor(getter) {
    this._getter = getter;
    this._value = void 0;
  }
  get value() {
    const getter = this._getter;
    if (getter !== void 0) {
      this._value = getter();
      this._getter = void 0;
    }
    return this._value;
  }
};
function cached(getter) {
  return new Cached(getter);
}
function nullish(input2) {
  return input2 === null || input2 === void 0;
}
function cleanRegex(source) {
  const start = source.startsWith("^") ? 1 : 0;
  const end = source.endsWith("$") ? source.length - 1 : source.length;
  return source.slice(start, end);
}
function assignProp(target, prop, value) {
  Object.defineProperty(target, prop, {
    value,
    writable: true,
    enumerable: true,
    configurable: true
  });
}
function rawShape(def) {
  const desc = Object.getOwnPropertyDescriptor(def, "shape");
  return desc?.get ? desc.get.raw : desc?.value;
}
function sourceShape(schema) {
  return rawShape(schema._zod.def) ?? schema._zod.def.shape;
}
function deferProp(target, key, getter) {
  Object.defineProperty(target, key, {
    get() {
      const value = getter();
      assignProp(this, key, value);
      return value;
    },
    enumerable: true,
    configurable: true
  });
}
function putProp(target, key, value) {
  if (key in target)
    assignProp(target, key, value);
  else
    target[key] = value;
}
function mirrorShape(target, source, keys, wrap) {
  const raw = sourceShape(source);
  for (const key of keys) {
    const desc = Object.getOwnPropertyDescriptor(raw, key);
    if (!desc.enumerable)
      continue;
    if (desc.get) {
      deferProp(target, key, () => {
        const value = source._zod.def.shape[key];
        return wrap ? wrap(value, key) : value;
      });
    } else
      putProp(target, key, wrap ? wrap(desc.value, key) : desc.value);
  }
}
function mergeDefs(...defs) {
  const mergedDescriptors = {};
  for (const def of defs) {
    const descriptors = Object.getOwnPropertyDescriptors(def);
    Object.assign(mergedDescriptors, descriptors);
  }
  return Object.defineProperties({}, mergedDescriptors);
}
var captureStackTrace = "captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => {
};
function isObject(data) {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}
var propertyKeyTypes = /* @__PURE__ */ new Set(["string", "number", "symbol"]);
function escapeRegex(str) {
  return str.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function clone(inst, def, params) {
  const cl = new inst._zod.constr(def ?? inst._zod.def);
  if (!def || params?.parent)
    cl._zod.parent = inst;
  return cl;
}
function normalizeParams(_params) {
  const params = _params;
  if (!params)
    return {};
  if (typeof params === "string")
    return { error: () => params };
  if (params?.message !== void 0) {
    if (params?.error !== void 0)
      throw new Error("Cannot specify both `message` and `error` params");
    params.error = params.message;
  }
  delete params.message;
  if (typeof params.error === "string")
    return { ...params, error: () => params.error };
  return params;
}
function stringifyPrimitive(value) {
  if (typeof value === "bigint")
    return value.toString() + "n";
  if (typeof value === "string")
    return `"${value}"`;
  return `${value}`;
}
function optionalKeys(shape) {
  return Object.keys(shape).filter((k) => {
    return shape[k]._zod.optin !== void 0 && shape[k]._zod.optout === "optional";
  });
}
var NUMBER_FORMAT_RANGES = /* @__PURE__ */ (() => ({
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-34028234663852886e22, 34028234663852886e22],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE]
}))();
function maskedKeys(schema, mask) {
  const raw = sourceShape(schema);
  const keys = [];
  for (const key of Reflect.ownKeys(mask)) {
    if (!Object.getOwnPropertyDescriptor(raw, key)?.enumerable) {
      throw new Error(`Unrecognized key: "${String(key)}"`);
    }
    if (mask[key])
      keys.push(key);
  }
  return keys;
}
function omit(schema, mask) {
  const currDef = schema._zod.def;
  const checks = currDef.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    throw new Error(".omit() cannot be used on object schemas containing refinements");
  }
  const omitted = new Set(maskedKeys(schema, mask));
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)).filter((key) => !omitted.has(key)));
  return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
function aborted(x, startIndex = 0) {
  if (x.aborted === true)
    return true;
  for (let i = startIndex; i < x.issues.length; i++) {
    if (x.issues[i]?.continue !== true) {
      return true;
    }
  }
  return false;
}
function explicitlyAborted(x, startIndex = 0) {
  if (x.aborted === true)
    return true;
  for (let i = startIndex; i < x.issues.length; i++) {
    if (x.issues[i]?.continue === false) {
      return true;
    }
  }
  return false;
}
function prefixIssues(path, issues) {
  return issues.map((iss) => {
    var _a2;
    (_a2 = iss).path ?? (_a2.path = []);
    iss.path.unshift(path);
    return iss;
  });
}
function unwrapMessage(message) {
  return typeof message === "string" ? message : message?.message;
}
function sizeCaps(defChecks) {
  const caps = [];
  for (const ch of defChecks ?? []) {
    const d = ch._zod.def;
    if (!/_(length|size)$|_equals$/.test(d.check))
      break;
    const max = d.maximum ?? d.length ?? d.size;
    if (max >= 0)
      caps.push([max, ch]);
  }
  return caps;
}
function attachSchema(issues, start, inst) {
  var _a2;
  for (let i = start; i < issues.length; i++) {
    (_a2 = issues[i]).schema ?? (_a2.schema = inst);
  }
}
function finalizeIssue(iss, ctx, config2) {
  var _a2;
  const traits = iss.inst?._zod?.traits;
  if (traits?.has("$ZodType")) {
    if (traits.has("$ZodCheck"))
      (_a2 = iss).schema ?? (_a2.schema = iss.inst);
    else
      iss.schema = iss.inst;
  }
  const schemaError = iss.schema !== iss.inst ? iss.schema?._zod.def?.error : void 0;
  const message = iss.message ? iss.message : unwrapMessage(iss.inst?._zod.def?.error?.(iss)) ?? unwrapMessage(schemaError?.(iss)) ?? unwrapMessage(ctx?.error?.(iss)) ?? unwrapMessage(config2.customError?.(iss)) ?? unwrapMessage(config2.localeError?.(iss)) ?? "Invalid input";
  const full = {};
  for (const k of Object.keys(iss)) {
    if (k === "inst" || k === "schema" || k === "continue" || k === "input" || k === "__proto__")
      continue;
    full[k] = iss[k];
  }
  full.path ?? (full.path = []);
  full.message = message;
  if (ctx?.reportInput) {
    full.input = iss.input;
  }
  return full;
}
var highSurrogate = /[\uD800-\uDBFF]/;
function codePointLength(str) {
  const units = str.length;
  if (!highSurrogate.test(str))
    return units;
  let count = units;
  for (let i = 0; i < units - 1; i++) {
    if ((str.charCodeAt(i) & 64512) === 55296 && (str.charCodeAt(i + 1) & 64512) === 56320) {
      count--;
      i++;
    }
  }
  return count;
}
function getLengthableOrigin(input2) {
  if (Array.isArray(input2))
    return "array";
  if (typeof input2 === "string")
    return "string";
  return "unknown";
}
function parsedType(data) {
  const t = typeof data;
  switch (t) {
    case "number": {
      return Number.isNaN(data) ? "nan" : "number";
    }
    case "object": {
      if (data === null) {
        return "null";
      }
      if (Array.isArray(data)) {
        return "array";
      }
      const obj = data;
      if (obj && Object.getPrototypeOf(obj) !== Object.prototype && "constructor" in obj && obj.constructor) {
        return obj.constructor.name;
      }
    }
  }
  return t;
}
function issue(...args) {
  const [iss, input2, inst] = args;
  if (typeof iss === "string") {
    return {
      message: iss,
      code: "custom",
      input: input2,
      inst
    };
  }
  return { ...iss };
}
function members(proto, table) {
  for (const key in table) {
    const desc = Object.getOwnPropertyDescriptor(table, key);
    if (desc.get)
      Object.defineProperty(proto, key, { ...desc, enumerable: false });
    else
      defineBound(proto, key, desc.value);
  }
}
function own(inst, key, value, enumerable = true) {
  Object.defineProperty(inst, key, { configurable: true, writable: true, enumerable, value });
  return value;
}
function hide(inst, key, value) {
  return own(inst, key, value, false);
}
function defineBound(proto, key, fn) {
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      return this == null ? fn : own(this, key, fn.bind(this));
    },
    set(value) {
      own(this, key, value);
    }
  });
}
function claim(inst, sentinel) {
  const proto = Object.getPrototypeOf(inst);
  return sentinel in proto ? void 0 : proto;
}
var installing;
var broke = false;
var breaker = {
  configurable: true,
  get() {
    broke = true;
    return void 0;
  }
};
function defineLazyInternal(inst, key, compute) {
  const proto = Object.getPrototypeOf(inst._zod);
  if (key in proto && installing !== inst._zod) {
    installing = void 0;
    return;
  }
  installing = inst._zod;
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      Object.defineProperty(this, key, breaker);
      const outer = broke;
      broke = false;
      try {
        const value = compute(this);
        if (broke)
          delete this[key];
        else
          Object.defineProperty(this, key, { configurable: true, writable: true, value });
        broke = broke || outer;
        return value;
      } catch (err) {
        delete this[key];
        broke = broke || outer;
        throw err;
      }
    },
    set(value) {
      Object.defineProperty(this, key, { configurable: true, writable: true, value });
    }
  });
}
function installLazyProp(inst, key, make, enumerable) {
  const proto = claim(inst, key);
  if (!proto)
    return;
  Object.defineProperty(proto, key, {
    configurable: true,
    get() {
      const desc = { configurable: true, writable: true, enumerable, value: void 0 };
      Object.defineProperty(this, key, desc);
      desc.value = make(this);
      Object.defineProperty(this, key, desc);
      return desc.value;
    },
    set(value) {
      Object.defineProperty(this, key, { configurable: true, writable: true, enumerable, value });
    }
  });
}

// node_modules/zod/v4/core/core.js
var _a;
var _zodDesc = { value: void 0, enumerable: false };
var _E = "captureStackTrace" in Error ? Error : null;
function newError(Definition) {
  const E = _E;
  if (E) {
    const saved = E.stackTraceLimit;
    if (typeof saved === "number") {
      try {
        E.stackTraceLimit = 0;
      } catch {
        _E = null;
        return new Definition();
      }
      try {
        return new Definition();
      } finally {
        E.stackTraceLimit = saved;
      }
    }
  }
  return new Definition();
}
// @__NO_SIDE_EFFECTS__
function $constructor(name, initializer2, proto, params) {
  const zodProto = {};
  function Internals(def) {
    this.def = def;
    this.constr = _;
    this.traits = /* @__PURE__ */ new Set();
  }
  Internals.prototype = zodProto;
  const protoMembers = proto;
  const initialized = protoMembers && /* @__PURE__ */ new WeakSet();
  function init(inst, def) {
    if (!inst._zod) {
      _zodDesc.value = new Internals(def);
      try {
        Object.defineProperty(inst, "_zod", _zodDesc);
      } finally {
        _zodDesc.value = void 0;
      }
    } else if (inst._zod.traits.has(name)) {
      return;
    }
    inst._zod.traits.add(name);
    initializer2(inst, def);
    if (initialized) {
      const own2 = Object.getPrototypeOf(inst);
      const ctorProto = inst._zod.constr.prototype;
      let up = own2;
      while (up && up !== ctorProto)
        up = Object.getPrototypeOf(up);
      const target = up ?? own2;
      if (!initialized.has(target)) {
        initialized.add(target);
        members(target, protoMembers);
      }
    }
    const proto2 = _.prototype;
    for (const k in proto2) {
      if (!Object.prototype.hasOwnProperty.call(proto2, k))
        continue;
      if (!(k in inst)) {
        inst[k] = proto2[k].bind(inst);
      }
    }
  }
  const Parent = params?.Parent ?? Object;
  class Definition extends Parent {
  }
  Object.defineProperty(Definition, "name", { value: name });
  function _(def) {
    const inst = params?.Parent ? newError(Definition) : this;
    init(inst, def);
    const deferred2 = inst._zod.deferred;
    if (deferred2) {
      for (const fn of deferred2) {
        fn();
      }
      inst._zod.deferred = void 0;
    }
    const pp = globalThis.__zod_globalConfig?.postProcessor;
    if (pp)
      pp(inst);
    return inst;
  }
  Object.defineProperty(_, "init", { value: init });
  Object.defineProperty(_, Symbol.hasInstance, {
    value: (inst) => {
      if (params?.Parent && inst instanceof params.Parent)
        return true;
      return inst?._zod?.traits?.has(name);
    }
  });
  Object.defineProperty(_, "name", { value: name });
  return _;
}
var $ZodAsyncError = class extends Error {
  constructor() {
    super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
  }
};
(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});
var globalConfig = globalThis.__zod_globalConfig;
function config(newConfig) {
  if (newConfig)
    Object.assign(globalConfig, newConfig);
  return globalConfig;
}

// node_modules/zod/v4/core/errors.js
function _getMessage() {
  const internals = this._zod;
  internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
  return internals.message;
}
function _setMessage(value) {
  this._zod.message = value;
}
var _messageDesc = {
  get: _getMessage,
  set: _setMessage,
  enumerable: true,
  configurable: true
};
var _issuesDesc = { value: void 0, enumerable: false };
var _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
var initializer = (inst, def) => {
  inst.name = "$ZodError";
  _issuesDesc.value = def;
  Object.defineProperty(inst, "issues", _issuesDesc);
  _issuesDesc.value = void 0;
  Object.defineProperty(inst, "message", _messageDesc);
  const proto = Object.getPrototypeOf(inst);
  if (!_installedToString.has(proto)) {
    _installedToString.add(proto);
    Object.defineProperty(proto, "toString", {
      configurable: true,
      enumerable: false,
      get() {
        const value = () => this.message;
        Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
        return value;
      },
      set(value) {
        Object.defineProperty(this, "toString", { value, configurable: true, writable: true });
      }
    });
  }
};
var $ZodError = $constructor("$ZodError", initializer);
var $ZodRealError = $constructor("$ZodError", initializer, void 0, {
  Parent: Error
});

// node_modules/zod/v4/core/parse.js
var _parse = (_Err) => {
  const fn = (schema, value, _ctx, _params) => {
    const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
    const result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise) {
      throw new $ZodAsyncError();
    }
    if (result.issues.length) {
      const e = new (_params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
      captureStackTrace(e, _params?.callee ?? fn);
      throw e;
    }
    return result.value;
  };
  return fn;
};
var parse = /* @__PURE__ */ _parse($ZodRealError);
var _parseAsync = (_Err) => {
  const fn = async (schema, value, _ctx, params) => {
    const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
    let result = schema._zod.run({ value, issues: [] }, ctx);
    if (result instanceof Promise)
      result = await result;
    if (result.issues.length) {
      const e = new (params?.Err ?? _Err)(result.issues.map((iss) => finalizeIssue(iss, ctx, config())));
      captureStackTrace(e, params?.callee ?? fn);
      throw e;
    }
    return result.value;
  };
  return fn;
};
var parseAsync = /* @__PURE__ */ _parseAsync($ZodRealError);
var _safeParse = (_Err) => (schema, value, _ctx) => {
  const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
  const result = schema._zod.run({ value, issues: [] }, ctx);
  if (result instanceof Promise) {
    throw new $ZodAsyncError();
  }
  return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
var safeParse = /* @__PURE__ */ _safeParse($ZodRealError);
function failure(Err, issues, ctx) {
  let error2;
  return {
    success: false,
    get error() {
      if (!error2) {
        error2 = new Err(issues.map((iss) => finalizeIssue(iss, ctx, config())));
        issues = void 0;
        ctx = void 0;
      }
      return error2;
    },
    set error(e) {
      error2 = e;
      issues = void 0;
      ctx = void 0;
    }
  };
}
var _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
  const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
  let result = schema._zod.run({ value, issues: [] }, ctx);
  if (result instanceof Promise)
    result = await result;
  return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
};
var safeParseAsync = /* @__PURE__ */ _safeParseAsync($ZodRealError);

// node_modules/zod/v4/core/regexes.js
var duration = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
var dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;
function anchor(source) {
  return new RegExp(`^${source}$`);
}
var date = /* @__PURE__ */ anchor(dateSource);
function timeSource(args) {
  const hhmm = `(?:[01]\\d|2[0-3]):[0-5]\\d`;
  const regex = typeof args.precision === "number" ? args.precision === -1 ? `${hhmm}` : args.precision === 0 ? `${hhmm}:[0-5]\\d` : `${hhmm}:[0-5]\\d\\.\\d{${args.precision}}` : args.seconds ? `${hhmm}:[0-5]\\d(?:\\.\\d+)?` : `${hhmm}(?::[0-5]\\d(?:\\.\\d+)?)?`;
  return regex;
}
function time(args) {
  return new RegExp(`^${timeSource(args)}$`);
}
function datetime(args) {
  const opts = ["Z"];
  if (args.offset)
    opts.push(`([+-](?:[01]\\d|2[0-3]):[0-5]\\d)`);
  const qualified = `${timeSource({ precision: args.precision, seconds: true })}(?:${opts.join("|")})`;
  const timeRegex = args.local ? `${qualified}|${timeSource({ precision: args.precision })}` : qualified;
  return new RegExp(`^${dateSource}T(?:${timeRegex})$`);
}
var anyString = /^[\s\S]{0,}$/;
var number = /^-?\d+(?:\.\d+)?$/;
var boolean = /^(?:true|false)$/i;

// node_modules/zod/v4/core/checks.js
var $ZodCheck = /* @__PURE__ */ $constructor("$ZodCheck", (inst, def) => {
  var _a2;
  inst._zod ?? (inst._zod = {});
  inst._zod.def = def;
  (_a2 = inst._zod).onattach ?? (_a2.onattach = []);
});
var _whenHasLength = (payload) => {
  const val = payload.value;
  return !nullish(val) && val.length !== void 0;
};
var numericOriginMap = {
  number: "number",
  bigint: "bigint",
  object: "date"
};
var $ZodCheckLessThan = /* @__PURE__ */ $constructor("$ZodCheckLessThan", (inst, def) => {
  $ZodCheck.init(inst, def);
  const origin = numericOriginMap[typeof def.value];
  inst._zod.check = (payload) => {
    if (def.inclusive ? payload.value <= def.value : payload.value < def.value) {
      return;
    }
    payload.issues.push({
      origin: numericOriginMap[typeof payload.value] ?? origin,
      code: "too_big",
      maximum: typeof def.value === "object" ? def.value.getTime() : def.value,
      input: payload.value,
      inclusive: def.inclusive,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckGreaterThan = /* @__PURE__ */ $constructor("$ZodCheckGreaterThan", (inst, def) => {
  $ZodCheck.init(inst, def);
  const origin = numericOriginMap[typeof def.value];
  inst._zod.check = (payload) => {
    if (def.inclusive ? payload.value >= def.value : payload.value > def.value) {
      return;
    }
    payload.issues.push({
      origin: numericOriginMap[typeof payload.value] ?? origin,
      code: "too_small",
      minimum: typeof def.value === "object" ? def.value.getTime() : def.value,
      input: payload.value,
      inclusive: def.inclusive,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckNumberFormat = /* @__PURE__ */ $constructor("$ZodCheckNumberFormat", (inst, def) => {
  $ZodCheck.init(inst, def);
  def.format = def.format || "float64";
  const isInt = def.format?.includes("int");
  const origin = isInt ? "int" : "number";
  const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
  inst._zod.check = (payload) => {
    const input2 = payload.value;
    if (isInt) {
      if (!Number.isInteger(input2)) {
        payload.issues.push({
          expected: origin,
          format: def.format,
          code: "invalid_type",
          continue: false,
          input: input2,
          inst
        });
        return;
      }
      if (!Number.isSafeInteger(input2)) {
        if (input2 > 0) {
          payload.issues.push({
            input: input2,
            code: "too_big",
            maximum: Number.MAX_SAFE_INTEGER,
            note: "Integers must be within the safe integer range.",
            inst,
            origin,
            inclusive: true,
            continue: !def.abort
          });
        } else {
          payload.issues.push({
            input: input2,
            code: "too_small",
            minimum: Number.MIN_SAFE_INTEGER,
            note: "Integers must be within the safe integer range.",
            inst,
            origin,
            inclusive: true,
            continue: !def.abort
          });
        }
        return;
      }
    }
    if (input2 < minimum) {
      payload.issues.push({
        origin: "number",
        input: input2,
        code: "too_small",
        minimum,
        inclusive: true,
        inst,
        continue: !def.abort
      });
    }
    if (input2 > maximum) {
      payload.issues.push({
        origin: "number",
        input: input2,
        code: "too_big",
        maximum,
        inclusive: true,
        inst,
        continue: !def.abort
      });
    }
  };
});
var $ZodCheckMaxLength = /* @__PURE__ */ $constructor("$ZodCheckMaxLength", (inst, def) => {
  var _a2;
  $ZodCheck.init(inst, def);
  (_a2 = inst._zod.def).when ?? (_a2.when = _whenHasLength);
  inst._zod.check = (payload) => {
    const input2 = payload.value;
    const units = input2.length;
    const length = typeof input2 === "string" && units > def.maximum ? codePointLength(input2) : units;
    if (length <= def.maximum)
      return;
    const origin = getLengthableOrigin(input2);
    payload.issues.push({
      origin,
      code: "too_big",
      maximum: def.maximum,
      inclusive: true,
      input: input2,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckMinLength = /* @__PURE__ */ $constructor("$ZodCheckMinLength", (inst, def) => {
  var _a2;
  $ZodCheck.init(inst, def);
  (_a2 = inst._zod.def).when ?? (_a2.when = _whenHasLength);
  inst._zod.check = (payload) => {
    const input2 = payload.value;
    const units = input2.length;
    const length = typeof input2 === "string" && units >= def.minimum && units < def.minimum * 2 ? codePointLength(input2) : units;
    if (length >= def.minimum)
      return;
    const origin = getLengthableOrigin(input2);
    payload.issues.push({
      origin,
      code: "too_small",
      minimum: def.minimum,
      inclusive: true,
      input: input2,
      inst,
      continue: !def.abort
    });
  };
});
var $ZodCheckStringFormat = /* @__PURE__ */ $constructor("$ZodCheckStringFormat", (inst, def) => {
  var _a2, _b;
  $ZodCheck.init(inst, def);
  if (def.pattern)
    (_a2 = inst._zod).check ?? (_a2.check = (payload) => {
      def.pattern.lastIndex = 0;
      if (def.pattern.test(payload.value))
        return;
      payload.issues.push({
        origin: "string",
        code: "invalid_format",
        format: def.format,
        input: payload.value,
        ...def.pattern ? { pattern: def.pattern.toString() } : {},
        inst,
        continue: !def.abort
      });
    });
  else
    (_b = inst._zod).check ?? (_b.check = () => {
    });
});
var $ZodCheckRegex = /* @__PURE__ */ $constructor("$ZodCheckRegex", (inst, def) => {
  $ZodCheckStringFormat.init(inst, def);
  inst._zod.check = (payload) => {
    def.pattern.lastIndex = 0;
    if (def.pattern.test(payload.value))
      return;
    payload.issues.push({
      origin: "string",
      code: "invalid_format",
      format: "regex",
      input: payload.value,
      pattern: def.pattern.toString(),
      inst,
      continue: !def.abort
    });
  };
});

// node_modules/zod/v4/core/versions.js
var version = {
  major: 4,
  minor: 6,
  patch: 7
};

// node_modules/zod/v4/core/schemas.js
var $ZodType = /* @__PURE__ */ $constructor("$ZodType", (inst, def) => {
  var _a2;
  inst ?? (inst = {});
  inst._zod.def = def;
  inst._zod.bag = inst._zod.bag || {};
  inst._zod.version = version;
  const defChecks = inst._zod.def.checks;
  const checks = inst._zod.traits.has("$ZodCheck") ? [inst, ...defChecks ?? []] : defChecks?.length ? [...defChecks] : [];
  for (const ch of checks) {
    for (const fn of ch._zod.onattach) {
      fn(inst);
    }
  }
  if (checks.length === 0) {
    (_a2 = inst._zod).deferred ?? (_a2.deferred = []);
    inst._zod.deferred?.push(() => {
      inst._zod.run = inst._zod.parse;
    });
  } else {
    const runChecks = (payload, checks2, ctx) => {
      if (payload.memo)
        return payload;
      let isAborted = aborted(payload);
      let asyncResult;
      for (const ch of checks2) {
        if (ch._zod.def.when) {
          if (explicitlyAborted(payload))
            continue;
          const shouldRun = ch._zod.def.when(payload);
          if (!shouldRun)
            continue;
        } else if (isAborted) {
          continue;
        }
        const currLen = payload.issues.length;
        const _ = ch._zod.check(payload);
        if (_ instanceof Promise && ctx?.async === false) {
          throw new $ZodAsyncError();
        }
        if (asyncResult || _ instanceof Promise) {
          asyncResult = (asyncResult ?? Promise.resolve()).then(async () => {
            await _;
            const nextLen = payload.issues.length;
            if (nextLen === currLen)
              return;
            attachSchema(payload.issues, currLen, inst);
            if (!isAborted)
              isAborted = aborted(payload, currLen);
          });
        } else {
          const nextLen = payload.issues.length;
          if (nextLen === currLen)
            continue;
          attachSchema(payload.issues, currLen, inst);
          if (!isAborted)
            isAborted = aborted(payload, currLen);
        }
      }
      if (asyncResult) {
        return asyncResult.then(() => {
          return payload;
        });
      }
      return payload;
    };
    const handleCanaryResult = (canary, payload, ctx) => {
      if (aborted(canary)) {
        canary.aborted = true;
        return canary;
      }
      const checkResult = runChecks(payload, checks, ctx);
      if (checkResult instanceof Promise) {
        if (ctx.async === false)
          throw new $ZodAsyncError();
        return checkResult.then((checkResult2) => inst._zod.parse(checkResult2, ctx));
      }
      return inst._zod.parse(checkResult, ctx);
    };
    inst._zod.run = (payload, ctx) => {
      if (ctx.skipChecks) {
        return inst._zod.parse(payload, ctx);
      }
      if (ctx.direction === "backward") {
        const canary = inst._zod.parse({ value: payload.value, issues: [] }, { ...ctx, skipChecks: true });
        if (canary instanceof Promise) {
          return canary.then((canary2) => {
            return handleCanaryResult(canary2, payload, ctx);
          });
        }
        return handleCanaryResult(canary, payload, ctx);
      }
      const result = inst._zod.parse(payload, ctx);
      if (result instanceof Promise) {
        if (ctx.async === false)
          throw new $ZodAsyncError();
        return result.then((result2) => runChecks(result2, checks, ctx));
      }
      return runChecks(result, checks, ctx);
    };
  }
}, {
  // Wrappers extend this by installing a richer factory over it; reading it eagerly would defeat the laziness.
  get "~standard"() {
    return hide(this, "~standard", standardProps(this));
  },
  set "~standard"(value) {
    own(this, "~standard", value);
  }
});
var toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
async function validateAsync(inst, value) {
  const ctx = { async: true };
  return toStandardResult(await inst._zod.run({ value, issues: [] }, ctx), ctx);
}
function standardProps(inst) {
  return {
    validate: (value) => {
      const ctx = { async: false };
      try {
        const r = inst._zod.run({ value, issues: [] }, ctx);
        if (!(r instanceof Promise))
          return toStandardResult(r, ctx);
      } catch (_) {
      }
      return validateAsync(inst, value);
    },
    vendor: "zod",
    version: 1
  };
}
var $ZodString = /* @__PURE__ */ $constructor("$ZodString", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = def.pattern ?? anyString;
  inst._zod.parse = (payload, _) => {
    if (def.coerce)
      try {
        payload.value = String(payload.value);
      } catch (_2) {
      }
    if (typeof payload.value === "string")
      return payload;
    payload.issues.push({
      expected: "string",
      code: "invalid_type",
      input: payload.value,
      inst
    });
    return payload;
  };
});
var $ZodStringFormat = /* @__PURE__ */ $constructor("$ZodStringFormat", (inst, def) => {
  $ZodCheckStringFormat.init(inst, def);
  $ZodString.init(inst, def);
});
var $ZodISODateTime = /* @__PURE__ */ $constructor("$ZodISODateTime", (inst, def) => {
  def.pattern ?? (def.pattern = datetime(def));
  $ZodStringFormat.init(inst, def);
});
var $ZodISODate = /* @__PURE__ */ $constructor("$ZodISODate", (inst, def) => {
  def.pattern ?? (def.pattern = date);
  $ZodStringFormat.init(inst, def);
});
var $ZodISOTime = /* @__PURE__ */ $constructor("$ZodISOTime", (inst, def) => {
  def.pattern ?? (def.pattern = time(def));
  $ZodStringFormat.init(inst, def);
});
var $ZodISODuration = /* @__PURE__ */ $constructor("$ZodISODuration", (inst, def) => {
  def.pattern ?? (def.pattern = duration);
  $ZodStringFormat.init(inst, def);
});
var $ZodNumber = /* @__PURE__ */ $constructor("$ZodNumber", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = number;
  inst._zod.parse = (payload, _ctx) => {
    if (def.coerce)
      try {
        payload.value = Number(payload.value);
      } catch (_) {
      }
    const input2 = payload.value;
    if (typeof input2 === "number" && !Number.isNaN(input2) && Number.isFinite(input2)) {
      return payload;
    }
    const received = typeof input2 === "number" ? Number.isNaN(input2) ? "NaN" : !Number.isFinite(input2) ? String(input2) : void 0 : void 0;
    payload.issues.push({
      expected: "number",
      code: "invalid_type",
      input: input2,
      inst,
      ...received ? { received } : {}
    });
    return payload;
  };
});
var $ZodNumberFormat = /* @__PURE__ */ $constructor("$ZodNumberFormat", (inst, def) => {
  $ZodCheckNumberFormat.init(inst, def);
  $ZodNumber.init(inst, def);
});
var $ZodBoolean = /* @__PURE__ */ $constructor("$ZodBoolean", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.pattern = boolean;
  inst._zod.parse = (payload, _ctx) => {
    if (def.coerce)
      try {
        payload.value = Boolean(payload.value);
      } catch (_) {
      }
    const input2 = payload.value;
    if (typeof input2 === "boolean")
      return payload;
    payload.issues.push({
      expected: "boolean",
      code: "invalid_type",
      input: input2,
      inst
    });
    return payload;
  };
});
var $ZodNever = /* @__PURE__ */ $constructor("$ZodNever", (inst, def) => {
  $ZodType.init(inst, def);
  inst._zod.parse = (payload, _ctx) => {
    payload.issues.push({
      expected: "never",
      code: "invalid_type",
      input: payload.value,
      inst
    });
    return payload;
  };
});
function capSize(inst, size) {
  const caps = sizeCaps(inst._zod.def.checks);
  if (!caps.length)
    return;
  const cap = Math.min(...caps.map((c) => c[0]));
  const parse2 = inst._zod.parse;
  inst._zod.parse = (payload, ctx) => {
    const n = size(payload.value);
    if (n > cap && !ctx?.skipChecks && ctx?.direction !== "backward") {
      for (const [max, ch] of sizeCaps(inst._zod.def.checks)) {
        if (n > max && ch._zod.def.when(payload)) {
          const start = payload.issues.length;
          ch._zod.check(payload);
          payload.issues[start].continue = false;
          attachSchema(payload.issues, start, inst);
          return payload;
        }
      }
    }
    return parse2(payload, ctx);
  };
}
var arraySize = (input2) => Array.isArray(input2) ? input2.length : -1;
function handleArrayResult(result, final, index) {
  if (result.issues.length) {
    final.issues.push(...prefixIssues(index, result.issues));
  }
  final.value[index] = result.value;
}
var $ZodArray = /* @__PURE__ */ $constructor("$ZodArray", (inst, def) => {
  $ZodType.init(inst, def);
  const memo = globalConfig.memoizer;
  memo?.attach(inst);
  inst._zod.parse = (payload, ctx) => {
    const input2 = payload.value;
    if (!Array.isArray(input2)) {
      payload.issues.push({
        expected: "array",
        code: "invalid_type",
        input: input2,
        inst
      });
      return payload;
    }
    payload.value = memo ? memo.alloc(inst, payload, Array(input2.length), ctx) : Array(input2.length);
    const proms = [];
    const abortEarly = ctx?.abortEarly;
    for (let i = 0; i < input2.length; i++) {
      const item = input2[i];
      const result = def.element._zod.run({
        value: item,
        issues: []
      }, ctx);
      if (result instanceof Promise) {
        proms.push(result.then((result2) => handleArrayResult(result2, payload, i)));
      } else {
        handleArrayResult(result, payload, i);
        if (abortEarly && result.issues.length !== 0 && aborted(result))
          break;
      }
    }
    if (proms.length) {
      return Promise.all(proms).then(() => payload);
    }
    return payload;
  };
  capSize(inst, arraySize);
});
function handlePropertyResult(result, final, key, input2, optin, optout) {
  const isPresent = key in input2;
  const isOptionalOut = optout === "optional";
  if (!isPresent && isOptionalOut && optin === "optional") {
    return;
  }
  if (result.issues.length) {
    if (optin !== void 0 && isOptionalOut && !isPresent) {
      return;
    }
    final.issues.push(...prefixIssues(key, result.issues));
  }
  if (!isPresent && optin === void 0) {
    if (!result.issues.length) {
      final.issues.push({
        code: "invalid_type",
        expected: "nonoptional",
        input: void 0,
        path: [key]
      });
    }
    return;
  }
  if (result.value === void 0) {
    if (isPresent || optin === "defaulted" && !isOptionalOut) {
      final.value[key] = void 0;
    }
  } else {
    final.value[key] = result.value;
  }
}
var NO_SYMBOL_KEYS = [];
function normalizeDef(def) {
  const keys = Object.keys(def.shape);
  const ownSymbols = Object.getOwnPropertySymbols(def.shape);
  const symbolKeys = ownSymbols.length ? ownSymbols : NO_SYMBOL_KEYS;
  const allKeys = symbolKeys.length ? [...keys, ...symbolKeys] : keys;
  for (const k of allKeys) {
    if (!def.shape?.[k]?._zod?.traits?.has("$ZodType")) {
      throw new Error(`Invalid element at key "${String(k)}": expected a Zod schema`);
    }
  }
  const okeys = optionalKeys(def.shape);
  return {
    ...def,
    allKeys,
    symbolKeys,
    // string-only: handleCatchall matches it against `for...in`, which never yields a symbol
    keySet: new Set(keys),
    numKeys: keys.length,
    optionalKeys: new Set(okeys)
  };
}
function handleCatchall(proms, input2, payload, ctx, def, inst, abortEarly) {
  const unrecognized = [];
  const keySet = def.keySet;
  const _catchall = def.catchall._zod;
  const t = _catchall.def.type;
  const optin = _catchall.optin;
  const optout = _catchall.optout;
  let seen = 0;
  for (const key in input2) {
    if (abortEarly && payload.issues.length !== seen) {
      if (aborted(payload, seen))
        break;
      seen = payload.issues.length;
    }
    if (keySet.has(key))
      continue;
    if (key === "__proto__") {
      if (t === "never")
        unrecognized.push(key);
      continue;
    }
    if (t === "never") {
      unrecognized.push(key);
      continue;
    }
    const r = _catchall.run({ value: input2[key], issues: [] }, ctx);
    if (r instanceof Promise) {
      proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input2, optin, optout)));
    } else {
      handlePropertyResult(r, payload, key, input2, optin, optout);
    }
  }
  if (unrecognized.length) {
    payload.issues.push({
      code: "unrecognized_keys",
      keys: unrecognized,
      input: input2,
      inst,
      // Describes the shape of the input, not the validity of the parsed value, so it never aborts. The parse still fails; the schema's own checks just get to run first, and an enclosing intersection can reconcile the key against a sibling operand.
      continue: true
    });
  }
  if (!proms.length)
    return payload;
  return Promise.all(proms).then(() => {
    return payload;
  });
}
var $ZodObject = /* @__PURE__ */ $constructor("$ZodObject", (inst, def) => {
  $ZodType.init(inst, def);
  const desc = Object.getOwnPropertyDescriptor(def, "shape");
  const sh = desc?.get ? desc.get.raw : def.shape ?? {};
  if (sh) {
    const get = () => {
      const newSh = { ...sh };
      Object.defineProperty(def, "shape", { value: newSh });
      get.raw = newSh;
      return newSh;
    };
    get.raw = sh;
    Object.defineProperty(def, "shape", { get });
  }
  const _normalized = cached(() => normalizeDef(def));
  defineLazyInternal(inst, "propValues", (zod) => {
    const shape = zod.def.shape;
    const propValues = {};
    for (const key in shape) {
      const field = shape[key]._zod;
      if (field.values) {
        if (!Object.prototype.hasOwnProperty.call(propValues, key)) {
          assignProp(propValues, key, /* @__PURE__ */ new Set());
        }
        for (const v of field.values)
          propValues[key].add(v);
        if (field.optin !== void 0)
          propValues[key].add(void 0);
      }
    }
    return propValues;
  });
  const isObject2 = isObject;
  const catchall = def.catchall;
  let value;
  const memo = globalConfig.memoizer;
  memo?.attach(inst);
  inst._zod.parse = (payload, ctx) => {
    value ?? (value = _normalized.value);
    const input2 = payload.value;
    if (!isObject2(input2)) {
      payload.issues.push({
        expected: "object",
        code: "invalid_type",
        input: input2,
        inst
      });
      return payload;
    }
    payload.value = memo ? memo.alloc(inst, payload, {}, ctx) : {};
    const proms = [];
    const shape = value.shape;
    const abortEarly = ctx?.abortEarly;
    let seen = payload.issues.length;
    for (const key of value.allKeys) {
      if (abortEarly && payload.issues.length !== seen) {
        if (aborted(payload, seen))
          break;
        seen = payload.issues.length;
      }
      if (key === "__proto__")
        continue;
      const el = shape[key];
      const optin = el._zod.optin;
      const optout = el._zod.optout;
      const r = el._zod.run({ value: input2[key], issues: [] }, ctx);
      if (r instanceof Promise) {
        proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input2, optin, optout)));
      } else {
        handlePropertyResult(r, payload, key, input2, optin, optout);
      }
    }
    if (!catchall) {
      return proms.length ? Promise.all(proms).then(() => payload) : payload;
    }
    return handleCatchall(proms, input2, payload, ctx, _normalized.value, inst, abortEarly === true);
  };
});
var $ZodEnum = /* @__PURE__ */ $constructor("$ZodEnum", (inst, def) => {
  $ZodType.init(inst, def);
  const values = getEnumValues(def.entries);
  const valuesSet = new Set(values);
  inst._zod.values = valuesSet;
  defineLazyInternal(inst, "pattern", (zod) => {
    const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
    return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
  });
  inst._zod.parse = (payload, _ctx) => {
    const input2 = payload.value;
    if (valuesSet.has(input2)) {
      return payload;
    }
    payload.issues.push({
      code: "invalid_value",
      values,
      input: input2,
      inst
    });
    return payload;
  };
});
var $ZodLiteral = /* @__PURE__ */ $constructor("$ZodLiteral", (inst, def) => {
  $ZodType.init(inst, def);
  const values = new Set(def.values);
  inst._zod.values = values;
  defineLazyInternal(inst, "pattern", (zod) => {
    const vals = zod.def.values;
    return new RegExp(vals.length ? `^(${vals.map((o) => typeof o === "string" ? escapeRegex(o) : o ? escapeRegex(o.toString()) : String(o)).join("|")})$` : "^[^\\s\\S]$");
  });
  inst._zod.parse = (payload, _ctx) => {
    const input2 = payload.value;
    if (values.has(input2)) {
      return payload;
    }
    payload.issues.push({
      code: "invalid_value",
      values: def.values,
      input: input2,
      inst
    });
    return payload;
  };
});
function handleOptionalResult(payload, result) {
  payload.value = result.issues.length ? void 0 : result.value;
  return payload;
}
var $ZodOptional = /* @__PURE__ */ $constructor("$ZodOptional", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
  inst._zod.optout = "optional";
  defineLazyInternal(inst, "values", (zod) => {
    const values = zod.def.innerType._zod.values;
    return values ? /* @__PURE__ */ new Set([...values, void 0]) : void 0;
  });
  defineLazyInternal(inst, "pattern", (zod) => {
    const pattern = zod.def.innerType._zod.pattern;
    return pattern ? new RegExp(`^(${cleanRegex(pattern.source)})?$`) : void 0;
  });
  inst._zod.parse = (payload, ctx) => {
    if (payload.value === void 0) {
      if (def.innerType._zod.optin !== "defaulted")
        return payload;
      const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
      if (result instanceof Promise)
        return result.then((result2) => handleOptionalResult(payload, result2));
      return handleOptionalResult(payload, result);
    }
    return def.innerType._zod.run(payload, ctx);
  };
});
var $ZodNullable = /* @__PURE__ */ $constructor("$ZodNullable", (inst, def) => {
  $ZodType.init(inst, def);
  defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin);
  defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
  defineLazyInternal(inst, "pattern", (zod) => {
    const pattern = zod.def.innerType._zod.pattern;
    return pattern ? new RegExp(`^(${cleanRegex(pattern.source)}|null)$`) : void 0;
  });
  defineLazyInternal(inst, "values", (zod) => {
    return zod.def.innerType._zod.values ? /* @__PURE__ */ new Set([...zod.def.innerType._zod.values, null]) : void 0;
  });
  inst._zod.parse = (payload, ctx) => {
    if (payload.value === null)
      return payload;
    return def.innerType._zod.run(payload, ctx);
  };
});
var $ZodCustom = /* @__PURE__ */ $constructor("$ZodCustom", (inst, def) => {
  $ZodCheck.init(inst, def);
  $ZodType.init(inst, def);
  inst._zod.parse = (payload, _) => {
    return payload;
  };
  inst._zod.check = (payload) => {
    const input2 = payload.value;
    const r = def.fn(input2);
    if (r instanceof Promise) {
      return r.then((r2) => handleRefineResult(r2, payload, input2, inst));
    }
    handleRefineResult(r, payload, input2, inst);
    return;
  };
});
function handleRefineResult(result, payload, input2, inst) {
  if (!result) {
    const _iss = {
      code: "custom",
      input: input2,
      inst,
      // incorporates params.error into issue reporting
      path: [...inst._zod.def.path ?? []],
      // incorporates params.error into issue reporting
      continue: !inst._zod.def.abort
      // params: inst._zod.def.params,
    };
    if (inst._zod.def.params)
      _iss.params = inst._zod.def.params;
    payload.issues.push(issue(_iss));
  }
}

// node_modules/zod/v4/locales/en.js
var error = () => {
  const Sizable = {
    string: { unit: "characters", verb: "to have" },
    file: { unit: "bytes", verb: "to have" },
    array: { unit: "items", verb: "to have" },
    set: { unit: "items", verb: "to have" },
    map: { unit: "entries", verb: "to have" }
  };
  function getSizing(origin) {
    return Sizable[origin] ?? null;
  }
  const FormatDictionary = {
    regex: "input",
    email: "email address",
    url: "URL",
    emoji: "emoji",
    uuid: "UUID",
    uuidv4: "UUIDv4",
    uuidv6: "UUIDv6",
    nanoid: "nanoid",
    guid: "GUID",
    cuid: "cuid",
    cuid2: "cuid2",
    ulid: "ULID",
    xid: "XID",
    ksuid: "KSUID",
    datetime: "ISO datetime",
    date: "ISO date",
    time: "ISO time",
    duration: "ISO duration",
    ipv4: "IPv4 address",
    ipv6: "IPv6 address",
    mac: "MAC address",
    cidrv4: "IPv4 range",
    cidrv6: "IPv6 range",
    base64: "base64-encoded string",
    base64url: "base64url-encoded string",
    json_string: "JSON string",
    e164: "E.164 number",
    currency_code: "currency code",
    credit_card: "credit card number",
    iban: "IBAN",
    jwt: "JWT",
    template_literal: "input"
  };
  const TypeDictionary = {
    // Compatibility: "nan" -> "NaN" for display
    nan: "NaN"
    // All other type names omitted - they fall back to raw values via ?? operator
  };
  function getTypeName(type, input2) {
    if (type === "number" && typeof input2 === "number" && !Number.isFinite(input2)) {
      return String(input2);
    }
    return TypeDictionary[type] ?? type;
  }
  return (issue2) => {
    switch (issue2.code) {
      case "invalid_type": {
        const expected = getTypeName(issue2.expected);
        const receivedType = parsedType(issue2.input);
        const received = getTypeName(receivedType, issue2.input);
        return `Invalid input: expected ${expected}, received ${received}`;
      }
      case "invalid_value":
        if (issue2.values.length === 1)
          return `Invalid input: expected ${stringifyPrimitive(issue2.values[0])}`;
        return `Invalid option: expected one of ${joinValues(issue2.values, "|")}`;
      case "too_big": {
        const adj = issue2.exact ? "exactly " : issue2.inclusive ? "<=" : "<";
        const sizing = getSizing(issue2.origin);
        if (sizing)
          return `Too big: expected ${issue2.origin ?? "value"} to have ${adj}${issue2.maximum.toString()} ${sizing.unit ?? "elements"}`;
        return `Too big: expected ${issue2.origin ?? "value"} to be ${adj}${issue2.maximum.toString()}`;
      }
      case "too_small": {
        const adj = issue2.exact ? "exactly " : issue2.inclusive ? ">=" : ">";
        const sizing = getSizing(issue2.origin);
        if (sizing) {
          return `Too small: expected ${issue2.origin} to have ${adj}${issue2.minimum.toString()} ${sizing.unit}`;
        }
        return `Too small: expected ${issue2.origin} to be ${adj}${issue2.minimum.toString()}`;
      }
      case "invalid_format": {
        const _issue = issue2;
        if (_issue.format === "starts_with") {
          return `Invalid string: must start with "${_issue.prefix}"`;
        }
        if (_issue.format === "ends_with")
          return `Invalid string: must end with "${_issue.suffix}"`;
        if (_issue.format === "includes")
          return `Invalid string: must include "${_issue.includes}"`;
        if (_issue.format === "regex")
          return `Invalid string: must match pattern ${_issue.pattern}`;
        return `Invalid ${FormatDictionary[_issue.format] ?? issue2.format}`;
      }
      case "not_multiple_of":
        return `Invalid number: must be a multiple of ${issue2.divisor}`;
      case "unrecognized_keys":
        return `Unrecognized key${issue2.keys.length > 1 ? "s" : ""}: ${joinValues(issue2.keys, ", ")}`;
      case "invalid_key":
        return `Invalid key in ${issue2.origin}`;
      case "invalid_union":
        if (issue2.options && Array.isArray(issue2.options) && issue2.options.length > 0) {
          const opts = issue2.options.map((o) => `'${o}'`).join(" | ");
          return `Invalid discriminator value. Expected ${opts}`;
        }
        if (issue2.inclusive === false) {
          return "Invalid input: more than one option matched";
        }
        return "Invalid input";
      case "invalid_element":
        return `Invalid value in ${issue2.origin}`;
      default:
        return `Invalid input`;
    }
  };
};
function en_default() {
  return {
    localeError: error()
  };
}

// node_modules/zod/v4/core/api.js
function snapshotChecks(def) {
  if (def.checks)
    def.checks = [...def.checks];
  return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class, params) {
  return new Class(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class, params) {
  return new Class({
    type: "string",
    format: "datetime",
    check: "string_format",
    offset: false,
    local: false,
    precision: null,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoDate(Class, params) {
  return new Class({
    type: "string",
    format: "date",
    check: "string_format",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class, params) {
  return new Class({
    type: "string",
    format: "time",
    check: "string_format",
    precision: null,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class, params) {
  return new Class({
    type: "string",
    format: "duration",
    check: "string_format",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _int(Class, params) {
  return new Class({
    type: "number",
    check: "number_format",
    abort: false,
    format: "safeint",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class, params) {
  return new Class({
    type: "boolean",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _never(Class, params) {
  return new Class({
    type: "never",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _lte(value, params) {
  return new $ZodCheckLessThan({
    check: "less_than",
    ...normalizeParams(params),
    value,
    inclusive: true
  });
}
// @__NO_SIDE_EFFECTS__
function _gt(value, params) {
  return new $ZodCheckGreaterThan({
    check: "greater_than",
    ...normalizeParams(params),
    value,
    inclusive: false
  });
}
// @__NO_SIDE_EFFECTS__
function _gte(value, params) {
  return new $ZodCheckGreaterThan({
    check: "greater_than",
    ...normalizeParams(params),
    value,
    inclusive: true
  });
}
// @__NO_SIDE_EFFECTS__
function _positive(params) {
  return /* @__PURE__ */ _gt(0, params);
}
// @__NO_SIDE_EFFECTS__
function _nonnegative(params) {
  return /* @__PURE__ */ _gte(0, params);
}
// @__NO_SIDE_EFFECTS__
function _maxLength(maximum, params) {
  const ch = new $ZodCheckMaxLength({
    check: "max_length",
    ...normalizeParams(params),
    maximum
  });
  return ch;
}
// @__NO_SIDE_EFFECTS__
function _minLength(minimum, params) {
  return new $ZodCheckMinLength({
    check: "min_length",
    ...normalizeParams(params),
    minimum
  });
}
// @__NO_SIDE_EFFECTS__
function _regex(pattern, params) {
  return new $ZodCheckRegex({
    check: "string_format",
    format: "regex",
    ...normalizeParams(params),
    pattern
  });
}
// @__NO_SIDE_EFFECTS__
function _refine(Class, fn, _params) {
  const schema = new Class({
    type: "custom",
    check: "custom",
    fn,
    ...normalizeParams(_params)
  });
  return schema;
}

// node_modules/zod/v4/mini/schemas.js
var ZodMiniType = /* @__PURE__ */ $constructor("ZodMiniType", (inst, def) => {
  if (!inst._zod)
    throw new Error("Uninitialized schema in ZodMiniType.");
  $ZodType.init(inst, def);
  inst.def = def;
  inst.type = def.type;
}, {
  // `with` is an alias for `check`: the same function object, not a wrapper.
  get with() {
    return this.check;
  },
  set with(value) {
    own(this, "with", value);
  },
  parse(data, params) {
    return parse(this, data, params, { callee: this.parse });
  },
  parseAsync(data, params) {
    return parseAsync(this, data, params, { callee: this.parseAsync });
  },
  safeParse(data, params) {
    return safeParse(this, data, params);
  },
  safeParseAsync(data, params) {
    return safeParseAsync(this, data, params);
  },
  check(...checks) {
    const def = this.def;
    return this.clone({
      ...def,
      checks: [
        ...def.checks ?? [],
        ...checks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch)
      ]
    }, { parent: true });
  },
  clone(_def, params) {
    return clone(this, _def, params);
  },
  brand() {
    return this;
  },
  register(reg, meta2) {
    reg.add(this, meta2);
    return this;
  },
  apply(fn, ...args) {
    return args.length === 0 ? fn(this) : fn(this, ...args);
  }
});
var ZodMiniString = /* @__PURE__ */ $constructor("ZodMiniString", (inst, def) => {
  $ZodString.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function string2(params) {
  return _string(ZodMiniString, params);
}
var ZodMiniStringFormat = /* @__PURE__ */ $constructor("ZodMiniStringFormat", (inst, def) => {
  $ZodStringFormat.init(inst, def);
  ZodMiniString.init(inst, def);
});
var ZodMiniNumber = /* @__PURE__ */ $constructor("ZodMiniNumber", (inst, def) => {
  $ZodNumber.init(inst, def);
  ZodMiniType.init(inst, def);
});
var ZodMiniNumberFormat = /* @__PURE__ */ $constructor("ZodMiniNumberFormat", (inst, def) => {
  $ZodNumberFormat.init(inst, def);
  ZodMiniNumber.init(inst, def);
});
function int(params) {
  return _int(ZodMiniNumberFormat, params);
}
var ZodMiniBoolean = /* @__PURE__ */ $constructor("ZodMiniBoolean", (inst, def) => {
  $ZodBoolean.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function boolean2(params) {
  return _boolean(ZodMiniBoolean, params);
}
var ZodMiniNever = /* @__PURE__ */ $constructor("ZodMiniNever", (inst, def) => {
  $ZodNever.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function never(params) {
  return _never(ZodMiniNever, params);
}
var ZodMiniArray = /* @__PURE__ */ $constructor("ZodMiniArray", (inst, def) => {
  $ZodArray.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function array(element, params) {
  return new ZodMiniArray({
    type: "array",
    element,
    ...normalizeParams(params)
  });
}
var ZodMiniObject = /* @__PURE__ */ $constructor("ZodMiniObject", (inst, def) => {
  $ZodObject.init(inst, def);
  ZodMiniType.init(inst, def);
  installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
});
// @__NO_SIDE_EFFECTS__
function object(shape, params) {
  const def = {
    type: "object",
    shape: shape ?? {},
    ...normalizeParams(params)
  };
  return new ZodMiniObject(def);
}
// @__NO_SIDE_EFFECTS__
function strictObject(shape, params) {
  return new ZodMiniObject({
    type: "object",
    shape,
    catchall: /* @__PURE__ */ never(),
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function omit2(schema, mask) {
  return omit(schema, mask);
}
var ZodMiniEnum = /* @__PURE__ */ $constructor("ZodMiniEnum", (inst, def) => {
  $ZodEnum.init(inst, def);
  ZodMiniType.init(inst, def);
  inst.options = [...inst._zod.values];
});
// @__NO_SIDE_EFFECTS__
function _enum(values, params) {
  const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
  return new ZodMiniEnum({
    type: "enum",
    entries,
    ...normalizeParams(params)
  });
}
var ZodMiniLiteral = /* @__PURE__ */ $constructor("ZodMiniLiteral", (inst, def) => {
  $ZodLiteral.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function literal(value, params) {
  return new ZodMiniLiteral({
    type: "literal",
    values: Array.isArray(value) ? value : [value],
    ...normalizeParams(params)
  });
}
var ZodMiniOptional = /* @__PURE__ */ $constructor("ZodMiniOptional", (inst, def) => {
  $ZodOptional.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function optional(innerType) {
  return new ZodMiniOptional({
    type: "optional",
    innerType
  });
}
var ZodMiniNullable = /* @__PURE__ */ $constructor("ZodMiniNullable", (inst, def) => {
  $ZodNullable.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function nullable(innerType) {
  return new ZodMiniNullable({
    type: "nullable",
    innerType
  });
}
var ZodMiniCustom = /* @__PURE__ */ $constructor("ZodMiniCustom", (inst, def) => {
  $ZodCustom.init(inst, def);
  ZodMiniType.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function refine(fn, _params = {}) {
  return _refine(ZodMiniCustom, fn, _params);
}

// node_modules/zod/v4/mini/iso.js
var iso_exports = {};
__export(iso_exports, {
  ZodMiniISODate: () => ZodMiniISODate,
  ZodMiniISODateTime: () => ZodMiniISODateTime,
  ZodMiniISODuration: () => ZodMiniISODuration,
  ZodMiniISOTime: () => ZodMiniISOTime,
  date: () => date2,
  datetime: () => datetime2,
  duration: () => duration2,
  time: () => time2
});
var ZodMiniISODateTime = /* @__PURE__ */ $constructor("ZodMiniISODateTime", (inst, def) => {
  $ZodISODateTime.init(inst, def);
  ZodMiniStringFormat.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function datetime2(params) {
  return _isoDateTime(ZodMiniISODateTime, params);
}
var ZodMiniISODate = /* @__PURE__ */ $constructor("ZodMiniISODate", (inst, def) => {
  $ZodISODate.init(inst, def);
  ZodMiniStringFormat.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function date2(params) {
  return _isoDate(ZodMiniISODate, params);
}
var ZodMiniISOTime = /* @__PURE__ */ $constructor("ZodMiniISOTime", (inst, def) => {
  $ZodISOTime.init(inst, def);
  ZodMiniStringFormat.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function time2(params) {
  return _isoTime(ZodMiniISOTime, params);
}
var ZodMiniISODuration = /* @__PURE__ */ $constructor("ZodMiniISODuration", (inst, def) => {
  $ZodISODuration.init(inst, def);
  ZodMiniStringFormat.init(inst, def);
});
// @__NO_SIDE_EFFECTS__
function duration2(params) {
  return _isoDuration(ZodMiniISODuration, params);
}

// types/zod.ts
if (!config().localeError) config(en_default());
function deferred(build) {
  let built;
  const schema = () => built ??= build();
  return new Proxy({}, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: a proxy may not report a non-configurable property its own target lacks.
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(schema(), key);
      return found === void 0 ? void 0 : { ...found, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema())
  });
}

// types/duration.ts
var MAX_DURATION_MS = 2147483647;
var DurationMs = deferred(() => int().check(_nonnegative(), _lte(MAX_DURATION_MS)));
var TimeoutMs = deferred(() => int().check(_positive(), _lte(MAX_DURATION_MS)));

// types/ids.ts
var OBJECT_ID_SOURCE = "[0-9a-f]{40}(?:[0-9a-f]{24})?";
var OBJECT_ID_PATTERN = new RegExp(`^${OBJECT_ID_SOURCE}$`);

// types/snapshot.ts
var SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
var SafeId = deferred(
  () => string2().check(
    _regex(SAFE_ID, "use 1-128 characters from A-Z a-z 0-9 . _ - starting with a letter or digit"),
    refine(
      (s) => !s.includes("..") && !s.endsWith(".lock") && !s.endsWith("."),
      'must not contain ".." or end with "." or ".lock"'
    )
  )
);
var Sha = deferred(
  () => string2().check(_regex(OBJECT_ID_PATTERN, "a full hexadecimal object id"))
);
var IsoDate = deferred(() => iso_exports.datetime({ offset: true }));
var HeadState = deferred(() => _enum(["branch", "detached", "unborn"]));
var SkippedPath = deferred(
  () => object({
    path: string2().check(_minLength(1)),
    reason: _enum([
      "special-file",
      "unreadable",
      "not-compared",
      "nested-repository",
      "submodule-not-checked-out",
      "submodule-modified",
      "invalid-path"
    ])
  })
);
var BeforeState = deferred(
  () => object({
    sha: Sha,
    branch: string2().check(_minLength(1)),
    isDirty: boolean2(),
    wipSha: nullable(Sha),
    capturedAt: IsoDate,
    runId: SafeId,
    headState: HeadState,
    /** With `before --init`: repositories found nested in the directory, left out of the first commit (and of later ones, through info/exclude). */
    nestedRepositories: optional(array(string2())),
    /** Paths the WIP commit could not take. */
    skipped: optional(array(SkippedPath))
  })
);
var FileStatus = deferred(
  () => _enum(["added", "modified", "deleted", "renamed", "copied", "typechange"])
);
var FileChange = deferred(
  () => object({
    path: string2().check(_minLength(1)),
    oldPath: nullable(string2().check(_minLength(1))),
    status: FileStatus,
    insertions: int().check(_nonnegative()),
    deletions: int().check(_nonnegative()),
    binary: boolean2()
  })
);
var DiffStats = deferred(
  () => object({
    filesChanged: int().check(_nonnegative()),
    insertions: int().check(_nonnegative()),
    deletions: int().check(_nonnegative()),
    files: array(FileChange)
  })
);
var CommitInfo = deferred(
  () => object({
    sha: Sha,
    message: string2(),
    author: string2(),
    date: IsoDate,
    parents: array(Sha)
  })
);
var AgentOutcome = deferred(
  () => object({
    exitCode: nullable(int()),
    signal: nullable(string2()),
    durationMs: DurationMs
  })
);
var SnapshotId = deferred(
  () => SafeId.check(refine((s) => !/^[0-9a-f]{4,64}$/i.test(s), "must not be hex digits alone (a commit id)"))
);
var Snapshot = deferred(
  () => object({
    id: SnapshotId,
    runId: SafeId,
    iteration: int().check(_nonnegative()),
    beforeSha: Sha,
    afterSha: Sha,
    branch: string2().check(_minLength(1)),
    commitMessage: string2(),
    patchPath: nullable(string2()),
    patchSha256: nullable(string2().check(_regex(/^[0-9a-f]{64}$/))),
    filesChanged: int().check(_nonnegative()),
    insertions: int().check(_nonnegative()),
    deletions: int().check(_nonnegative()),
    createdAt: IsoDate,
    files: array(FileChange),
    workspace: string2().check(_minLength(1)),
    ref: nullable(string2()),
    /** The whole task prompt and the gate plan source given to `after` (the commit message keeps the task's first 100 characters). */
    task: optional(nullable(string2())),
    /** Paths the iteration's commit could not take (left as they were). */
    skipped: optional(array(SkippedPath)),
    gate: optional(nullable(string2())),
    /** For a snapshot rebuilt from a fetched or imported record: the workspace where it was recorded (`workspace` is the one on this machine). */
    recordedWorkspace: optional(string2().check(_minLength(1))),
    /** Set by `iterate`: how the agent command it ran between before and after ended. */
    agent: optional(AgentOutcome)
  })
);

// types/gate.ts
var MAX_RECORDED_FAILURES = 50;
var MAX_GATE_ATTEMPT = 2 ** 31 - 1;
var MAX_COMMAND_ARGS = 1e4;
var MAX_COMMAND_ARG_CHARS = 1e6;
var MAX_JUNIT_FILES = 100;
var MAX_JUNIT_PATH_CHARS = 4096;
var NO_NUL = /^[^\0]*$/;
var GateName = SafeId;
var GateVerdict = deferred(() => _enum(["pass", "fail", "error"]));
var TestFailure = deferred(
  () => object({
    suite: string2().check(_maxLength(4096)),
    name: string2().check(_maxLength(4096)),
    message: string2().check(_maxLength(65536))
  })
);
var TestCounts = deferred(
  () => object({
    total: int().check(_nonnegative()),
    passed: int().check(_nonnegative()),
    failed: int().check(_nonnegative()),
    skipped: int().check(_nonnegative()),
    errors: int().check(_nonnegative()),
    failures: array(TestFailure).check(_maxLength(MAX_RECORDED_FAILURES))
  })
);
var TestTotals = deferred(() => omit2(TestCounts, { failures: true }));
var GateLog = deferred(
  () => object({
    /** Absolute path on the machine that prints it; for a fetched verdict without its text, null. */
    path: nullable(string2().check(_minLength(1))),
    sha256: string2().check(_regex(/^[0-9a-f]{64}$/)),
    bytes: int().check(_nonnegative())
  })
);
var GateResult = deferred(
  () => object({
    /** Unique across machines (random, like snapshot ids). */
    id: SafeId,
    runId: SafeId,
    iteration: int().check(_nonnegative()),
    name: GateName,
    /** 1, 2, ... per iteration and name, as numbered where it was recorded. */
    attempt: int().check(_positive(), _lte(MAX_GATE_ATTEMPT)),
    /** The tree of the after commit the gate judged. */
    treeId: Sha,
    afterSha: Sha,
    /** The argv that ran; null for `gate record`. */
    command: nullable(
      array(string2().check(_maxLength(MAX_COMMAND_ARG_CHARS), _regex(NO_NUL))).check(_maxLength(MAX_COMMAND_ARGS))
    ),
    /** True when agentgate ran the command itself; false for a verdict the caller reported. */
    observed: boolean2(),
    isolated: boolean2(),
    startedAt: IsoDate,
    durationMs: DurationMs,
    exitCode: nullable(int()),
    signal: nullable(string2().check(_maxLength(32))),
    timedOut: boolean2(),
    verdict: GateVerdict,
    /** One line saying why. */
    reason: string2().check(_maxLength(1e3), _regex(/^[^\r\n]*$/)),
    tests: nullable(TestCounts),
    log: nullable(GateLog),
    /** The attempt this one replayed (`gate replay`), or null. */
    replayOf: nullable(int().check(_positive(), _lte(MAX_GATE_ATTEMPT))),
    /** The JUnit files as given (relative to where the command ran), so that `gate replay` reads the same ones. */
    junit: optional(
      array(string2().check(_minLength(1), _maxLength(MAX_JUNIT_PATH_CHARS), _regex(NO_NUL))).check(_maxLength(MAX_JUNIT_FILES))
    ),
    /** `--min-tests` as given, or null. */
    minTests: optional(nullable(int().check(_nonnegative()))),
    /** `--timeout` in milliseconds, or null. */
    timeoutMs: optional(nullable(TimeoutMs)),
    /**
     * Only when true: the check, run in the workspace, left it other than the tree it judged (a
     * file written, HEAD moved), so the verdict is an `error` whatever the command said.
     */
    workspaceChanged: optional(literal(true)),
    /**
     * Only on a verdict recorded elsewhere: when this home received it (`fetch`, `import`). Never
     * travels; it bounds the verdict's place in the order (types/gate-rules.ts, `gateOrder`).
     */
    receivedAt: optional(IsoDate)
  })
);

// types/run.ts
var RunRestart = deferred(
  () => strictObject({
    from: int().check(_nonnegative()),
    sha: Sha,
    lastIteration: int().check(_nonnegative()),
    at: IsoDate
  })
);
var DeletedSnapshot = deferred(
  () => strictObject({
    snapshotId: SafeId,
    iteration: int().check(_nonnegative()),
    /** Where the capture started: the run's start when it was the run's first iteration (absent in records written before it was kept). */
    beforeSha: optional(Sha),
    afterSha: Sha,
    at: IsoDate
  })
);
var IndexSeal = deferred(
  () => strictObject({
    /** sha256 of the index's bytes (with a split index's shared files), or `absent`, or the special file's kind. */
    digest: string2().check(_minLength(1), _maxLength(64)),
    /** The index file's mtime, in whole seconds since the epoch. */
    writtenAt: int().check(_nonnegative()),
    /** The commit whose tree the index then held. */
    commit: Sha
  })
);
var RunRecord = deferred(
  () => object({
    runId: SafeId,
    workspace: string2().check(_minLength(1)),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    before: nullable(BeforeState),
    /** The snapshot whose `after` used `before` up: a second `after` needs a new `before` (or an explicit --before). */
    beforeUsedBy: optional(
      nullable(object({ snapshotId: SafeId, iteration: int().check(_nonnegative()) }))
    ),
    snapshotIds: array(SafeId),
    /** Declared restarts, oldest first; absent when there were none. */
    restarts: optional(array(RunRestart)),
    /** Snapshots deleted from the run, oldest first; absent when there were none. */
    deletedSnapshots: optional(array(DeletedSnapshot)),
    /** For a run rebuilt from fetched or imported records: the workspace where it was recorded. */
    recordedWorkspace: optional(string2().check(_minLength(1))),
    /** The git index as this run's last `before` or `after` left it (src/git/index-seal.ts). */
    indexSeal: optional(IndexSeal),
    /**
     * An `iterate` whose after step failed once its agent had run, on the before state captured at
     * `beforeCapturedAt`: the agent's work is in the workspace, in no snapshot, and only `after` of
     * `iteration` may take it (a new before would take it in as the user's).
     */
    agentRan: optional(object({ iteration: int().check(_nonnegative()), beforeCapturedAt: IsoDate }))
  })
);

// src/report/gates.ts
var MAX_GATE_ANNOTATIONS = 10;
function failedGates(gates) {
  return (gates?.summary ?? []).filter((s) => s.latest.verdict !== "pass");
}
function gateAnnotations(gates) {
  return failedGates(gates).slice(0, MAX_GATE_ANNOTATIONS).map((s) => {
    const title = `agentgate gate ${s.name}: ${s.latest.verdict}`;
    const tests = s.latest.failures.slice(0, 5).map((f) => `
- ${f.suite ? `${f.suite} > ` : ""}${f.name}: ${f.message.split("\n")[0] ?? ""}`).join("");
    return `::error title=${escapeProperty(title)}::${escapeData(
      `iteration ${s.iteration}, attempt ${s.latest.attempt}: ${s.latest.reason}${tests}`
    )}`;
  });
}

// action/src/anchor.ts
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
var ZERO = /^0+$/;
var SUMMARY_ANCHORS = 20;
function anchorTarget(io, env) {
  const range = io.input("range");
  if (range) return ["--range", revisionInput(io, "range", range, /\.\./)];
  const commit = io.input("commit");
  if (commit) return [revisionInput(io, "commit", commit, /^/)];
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const pr = event?.pull_request;
  if (pr !== void 0 && pr !== null)
    return pr.merged === true && typeof pr.merge_commit_sha === "string" ? [pr.merge_commit_sha] : null;
  const before = typeof event?.before === "string" ? event.before : "";
  const after = typeof event?.after === "string" ? event.after : env.GITHUB_SHA ?? "";
  if (before && !ZERO.test(before) && after) return ["--range", `${before}..${after}`];
  if (after) return [after];
  return ["HEAD"];
}
function forcedPushTip(io, env) {
  if (io.input("range") || io.input("commit")) return null;
  const event = readEvent(env.GITHUB_EVENT_PATH);
  if (event === null || event.forced !== true || event.pull_request !== void 0 && event.pull_request !== null)
    return null;
  const target = anchorTarget({ input: io.input, fail: (message) => new Error(message) }, env);
  return target?.[0] === "--range" && typeof event.after === "string" ? event.after : null;
}
function revisionInput(io, name, text, shape) {
  if (text.startsWith("-") || /\s/.test(text) || !shape.test(text))
    throw io.fail(
      `input ${name} must be a git ${name === "range" ? "range A..B" : "revision"}, not ${JSON.stringify(text)}`
    );
  return text;
}
function readEvent(path) {
  if (!path) return null;
  try {
    const doc = JSON.parse(readFileSync(path, "utf8"));
    return doc !== null && typeof doc === "object" ? doc : null;
  } catch {
    return null;
  }
}
function anchorInputs(io, env) {
  return {
    target: anchorTarget(io, env),
    remote: io.input("remote") ? ["--remote", io.input("remote")] : [],
    fetch: io.flag("fetch", true),
    summary: io.flag("summary", true),
    publish: io.flag("publish", true),
    minCoverage: percentInput(io, "min-coverage")
  };
}
function percentInput(io, name) {
  const text = io.input(name);
  if (!text) return null;
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(value <= 100))
    throw io.fail(`input ${name} must be a whole number from 0 to 100, not ${JSON.stringify(text)}`);
  return value;
}
async function anchor2(io, env) {
  const want = anchorInputs(io, env);
  mkdirSync(io.outputDir, { recursive: true });
  if (want.fetch) io.cliJson(["fetch", ...want.remote], "fetch");
  const doc = want.target === null ? [] : anchorOrForcedTip(io, want.target, env);
  const anchors = Array.isArray(doc) ? doc : [doc];
  const total = anchors.reduce(
    (t, a) => ({
      files: t.files + a.coverage.files,
      filesFromRuns: t.filesFromRuns + a.coverage.filesFromRuns,
      linesAdded: t.linesAdded + a.coverage.linesAdded,
      linesFromRuns: t.linesFromRuns + a.coverage.linesFromRuns
    }),
    { files: 0, filesFromRuns: 0, linesAdded: 0, linesFromRuns: 0 }
  );
  const report = writeReport(io, anchors);
  await io.setOutputs({
    commits: anchors.map((a) => a.commit).join(","),
    runs: [...new Set(anchors.flatMap((a) => a.runs.map((r) => r.runId)))].sort().join(","),
    files: String(total.files),
    "files-from-runs": String(total.filesFromRuns),
    "lines-added": String(total.linesAdded),
    "lines-from-runs": String(total.linesFromRuns),
    coverage: total.linesAdded === 0 ? "" : String(Math.floor(total.linesFromRuns * 100 / total.linesAdded)),
    "report-path": report
  });
  await summarize(io, anchors, want);
  if (want.publish && anchors.length > 0) io.cliJson(["push", "--anchors", "only", ...want.remote], "push");
  const wanted = want.minCoverage;
  if (wanted !== null) {
    const got = total.linesAdded === 0 ? 100 : Math.floor(total.linesFromRuns * 100 / total.linesAdded);
    if (got < wanted)
      throw io.fail(
        `${total.linesFromRuns} of ${total.linesAdded} added lines (${got}%) come from recorded runs, below min-coverage ${wanted}%`
      );
  }
}
function anchorOrForcedTip(io, target, env) {
  try {
    return io.cliJson(["anchor", ...target], "anchor");
  } catch (error2) {
    const tip = forcedPushTip(io, env);
    if (tip === null || error2.code !== "REVISION_NOT_FOUND") throw error2;
    process.stdout.write(
      `::notice title=agentgate::a forced push: its before commit is not in this clone; anchoring its last commit ${tip}
`
    );
    return io.cliJson(["anchor", tip], "anchor");
  }
}
function writeReport(io, anchors) {
  const last = anchors.at(-1);
  if (last === void 0) return "";
  const report = join(io.outputDir, `agentgate-anchor-${last.commit}.html`);
  io.cliJson(["report", "--anchor", last.commit, "--format", "html", "-o", report, "--ci", "none"], "report");
  return report;
}
async function summarize(io, anchors, want) {
  if (io.stepSummary === null || !want.summary) return;
  if (anchors.length === 0)
    await appendStepSummary(
      io.stepSummary,
      want.target === null ? "## agentgate anchor\n\nThe pull request was not merged: nothing to anchor.\n" : "## agentgate anchor\n\nNo new first-parent commit to anchor.\n"
    );
  for (const a of anchors.slice(-SUMMARY_ANCHORS)) {
    const doc = io.cliJson(["report", "--anchor", a.commit, "--format", "md", "--ci", "github"], "summary");
    const appended = doc?.appended;
    if (appended !== void 0 && appended !== "whole") break;
  }
}

// action/src/main.ts
var HERE = dirname(fileURLToPath(import.meta.url));
var CLI = join2(HERE, "cli.js");
var FORMATS = ["html", "md", "json", "dotenv", "none"];
var EXTENSIONS = { html: "html", md: "md", json: "json", dotenv: "env" };
var ActionFailure = class extends Error {
  /** The CLI's error code, when the failure is a CLI command's. */
  constructor(message, code) {
    super(message);
    this.code = code;
  }
  code;
};
function input(name, fallback = "") {
  const value = process.env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`];
  return value === void 0 || value.trim() === "" ? fallback : value.trim();
}
function flag(name, fallback) {
  const value = input(name, String(fallback)).toLowerCase();
  if (value === "true") return true;
  if (value === "false") return false;
  throw new ActionFailure(`input ${name} must be true or false, not ${JSON.stringify(value)}`);
}
function envFile(name) {
  const value = process.env[name];
  return value ? value : null;
}
async function setOutputs(values) {
  const file = envFile("GITHUB_OUTPUT");
  if (file) await appendKeyValues(file, values);
}
function runnerTemp() {
  return process.env.RUNNER_TEMP || tmpdir();
}
function home() {
  return resolve(input("home", process.env.AGENTGATE_HOME || join2(runnerTemp(), "agentgate-home")));
}
function workspace() {
  return resolve(input("workspace", process.env.GITHUB_WORKSPACE || process.cwd()));
}
function cli(args, opts = {}) {
  const res = spawnSync(process.execPath, [CLI, "-C", workspace(), ...args], {
    env: { ...process.env, AGENTGATE_HOME: home() },
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"]
  });
  if (res.error) throw new ActionFailure(`could not run the CLI: ${res.error.message}`);
  if (!opts.capture && res.stdout) process.stdout.write(res.stdout);
  if (res.stderr) process.stderr.write(res.stderr);
  return { status: res.status ?? 1, stdout: res.stdout };
}
function cliJson(args, what) {
  const res = cli([...args, "--json"], { capture: true });
  let doc;
  try {
    doc = JSON.parse(res.stdout);
  } catch {
    throw new ActionFailure(`${what}: the CLI printed no JSON (exit ${res.status})`);
  }
  const error2 = doc.error;
  if (res.status !== 0 || error2)
    throw new ActionFailure(
      `${what} failed: ${error2?.code ?? "ERROR"}: ${error2?.message ?? `exit ${res.status}`}`,
      error2?.code
    );
  return doc;
}
function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
async function setup() {
  const bin = join2(runnerTemp(), "agentgate-bin");
  await mkdir(bin, { recursive: true });
  const shim = join2(bin, "agentgate-snapshot");
  await writeFile(shim, `#!/bin/sh
exec ${shellQuote(process.execPath)} ${shellQuote(CLI)} "$@"
`, "utf8");
  await chmod(shim, 493);
  await mkdir(home(), { recursive: true });
  const pathFile = envFile("GITHUB_PATH");
  if (pathFile) await appendPath(pathFile, bin);
  const envOut = envFile("GITHUB_ENV");
  if (envOut) await appendKeyValues(envOut, { AGENTGATE_HOME: home() });
  await setOutputs({ home: home(), "bin-path": bin });
  process.stdout.write(`agentgate-snapshot is on PATH (${bin}); AGENTGATE_HOME=${home()}
`);
}
async function finish() {
  const format = input("report-format", "html");
  if (!FORMATS.includes(format))
    throw new ActionFailure(`input report-format must be one of ${FORMATS.join(", ")}`);
  const want = {
    verify: flag("verify", true),
    failOnVerify: flag("fail-on-verify", true),
    failOnGate: flag("fail-on-gate", false),
    summary: flag("summary", true) && envFile("GITHUB_STEP_SUMMARY") !== null,
    bundle: flag("bundle", false),
    publish: flag("publish", false)
  };
  const runArgs = input("run-id") ? ["--run", input("run-id")] : [];
  const doc = cliJson(["report", "--format", "json", "--ci", "none", ...runArgs], "report");
  const runId = doc.run.runId;
  const gates = doc.gates;
  const failedGates2 = (gates?.summary ?? []).filter((s) => s.latest.verdict !== "pass").map((s) => s.name);
  const out = resolve(input("output-dir", join2(runnerTemp(), "agentgate-out")));
  await mkdir(out, { recursive: true });
  const outputs = {
    "run-id": runId,
    "report-path": "",
    "bundle-path": "",
    // As the CLI resolves it: $AGENTGATE_ARTIFACTS_DIR, the home's config, else <home>/artifacts.
    "artifacts-path": doc.artifactsPath,
    verified: "",
    "failed-gates": failedGates2.join(",")
  };
  const failures = [];
  if (want.verify) {
    const verified = cli(["verify", "--run", runId, "--ci", "github"]);
    outputs.verified = String(verified.status === 0);
    if (verified.status !== 0 && want.failOnVerify)
      failures.push(
        verified.status === 3 ? `verify found failed checks in run ${runId}` : `verify could not run for run ${runId} (exit ${verified.status})`
      );
  }
  if (failedGates2.length > 0 && want.failOnGate)
    failures.push(`the newest verdict of gate(s) ${failedGates2.join(", ")} in run ${runId} is not a pass`);
  const published = await writeAndPublish(runId, format, out, want, outputs);
  failures.push(...published.failures);
  if (!published.annotated) for (const line of gateAnnotations(gates)) process.stdout.write(`${line}
`);
  await setOutputs(outputs);
  if (failures.length > 0) throw new ActionFailure(failures.join("; "));
}
async function writeAndPublish(runId, format, out, want, outputs) {
  const failures = [];
  const run = (args, what) => {
    try {
      cliJson(args, what);
      return true;
    } catch (error2) {
      if (!(error2 instanceof ActionFailure)) throw error2;
      failures.push(error2.message);
      return false;
    }
  };
  const writes = async (output, file, args, what) => {
    await rm(file, { force: true }).catch(() => void 0);
    const ok = run(args, what);
    if (await stat2(file).then(
      (s) => s.isFile(),
      () => false
    ))
      outputs[output] = file;
    return ok;
  };
  let annotated = want.summary && run(["report", "--run", runId, "--format", "md", "--ci", "github"], "summary");
  if (format !== "none") {
    const file = join2(out, `agentgate-report-${runId}.${EXTENSIONS[format]}`);
    const ci = annotated ? "none" : "github";
    const args = ["report", "--run", runId, "--format", format, "-o", file, "--ci", ci];
    if (await writes("report-path", file, args, "report") && ci === "github") annotated = true;
  }
  if (want.bundle) {
    const file = join2(out, `agentgate-${runId}.bundle`);
    await writes("bundle-path", file, ["export", "--run", runId, "-o", file], "export");
  }
  if (want.publish)
    run(["push", "--run", runId, ...input("remote") ? ["--remote", input("remote")] : []], "push");
  return { failures, annotated };
}
async function anchorMode() {
  const outputDir = resolve(input("output-dir", join2(runnerTemp(), "agentgate-out")));
  await anchor2(
    {
      input,
      flag,
      cli: (args) => cli(args),
      cliJson,
      setOutputs,
      stepSummary: envFile("GITHUB_STEP_SUMMARY"),
      outputDir,
      fail: (message) => new ActionFailure(message)
    },
    process.env
  );
}
async function main() {
  const mode = input("mode", "setup");
  if (mode === "setup") await setup();
  else if (mode === "finish") await finish();
  else if (mode === "anchor") await anchorMode();
  else throw new ActionFailure(`input mode must be setup, finish or anchor, not ${JSON.stringify(mode)}`);
}
main().catch((error2) => {
  const message = error2 instanceof Error ? error2.message : String(error2);
  process.stdout.write(`::error title=agentgate::${escapeData(message)}
`);
  process.exitCode = 1;
});
