#!/usr/bin/env node
import { createRequire as __agentgateCreateRequire } from 'node:module';
const require = __agentgateCreateRequire(import.meta.url);
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, {
  get: (a, b) => (typeof require !== "undefined" ? require : a)[b]
}) : x)(function(x) {
  if (typeof require !== "undefined") return require.apply(this, arguments);
  throw Error('Dynamic require of "' + x + '" is not supported');
});
var __esm = (fn, res, err) => function __init() {
  if (err) throw err[0];
  try {
    return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
  } catch (e) {
    throw err = [e], e;
  }
};
var __commonJS = (cb, mod) => function __require2() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// src/errors.ts
function isAgentgateError(value) {
  return value instanceof AgentgateError;
}
var AgentgateError, UsageError, InvalidIdError, InvalidArgumentError, SnapshotNotFoundError, AmbiguousIdError, RunNotFoundError, RevisionNotFoundError, WorkspaceNotFoundError, NotARepositoryError, UnsafeWorkspaceError, PathOutsideWorkspaceError, UnmergedPathsError, OperationInProgressError, DirtyWorkspaceError, IterationExistsError, HistoryRewrittenError, BranchExistsError, ConcurrentUpdateError, CherryPickConflictError, EmptySnapshotError, StoreCorruptError, WriteFailedError, LockTimeoutError, ConfigInvalidError, CheckpointNotFoundError, GitNotFoundError, GitTimeoutError, GitFailedError, CiEnvironmentError, InvalidRequestError, RemoteNotFoundError, PushRejectedError, BundleInvalidError, UnsafeRemoteError, DiskFullError, UnsafeRepositoryOwnerError, IndexLockedError, ObjectMissingError, LfsUnsupportedError, RunWorkspaceMismatchError, NoBeforeStateError, IterationOutOfOrderError, NothingToVerifyError, GitOutputUnparseableError, PathNotFoundError;
var init_errors = __esm({
  "src/errors.ts"() {
    "use strict";
    AgentgateError = class extends Error {
      /** Exit status the CLI uses: 2 for usage errors, 1 for everything else. */
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
    UsageError = class extends AgentgateError {
      code = "USAGE";
      exitCode = 2;
    };
    InvalidIdError = class extends AgentgateError {
      code = "INVALID_ID";
    };
    InvalidArgumentError = class extends AgentgateError {
      code = "INVALID_ARGUMENT";
      exitCode = 2;
    };
    SnapshotNotFoundError = class extends AgentgateError {
      code = "SNAPSHOT_NOT_FOUND";
    };
    AmbiguousIdError = class extends AgentgateError {
      code = "AMBIGUOUS_ID";
    };
    RunNotFoundError = class extends AgentgateError {
      code = "RUN_NOT_FOUND";
    };
    RevisionNotFoundError = class extends AgentgateError {
      code = "REVISION_NOT_FOUND";
    };
    WorkspaceNotFoundError = class extends AgentgateError {
      code = "WORKSPACE_NOT_FOUND";
    };
    NotARepositoryError = class extends AgentgateError {
      code = "NOT_A_REPOSITORY";
    };
    UnsafeWorkspaceError = class extends AgentgateError {
      code = "UNSAFE_WORKSPACE";
    };
    PathOutsideWorkspaceError = class extends AgentgateError {
      code = "PATH_OUTSIDE_WORKSPACE";
    };
    UnmergedPathsError = class extends AgentgateError {
      code = "UNMERGED_PATHS";
    };
    OperationInProgressError = class extends AgentgateError {
      code = "OPERATION_IN_PROGRESS";
    };
    DirtyWorkspaceError = class extends AgentgateError {
      code = "DIRTY_WORKSPACE";
    };
    IterationExistsError = class extends AgentgateError {
      code = "ITERATION_EXISTS";
    };
    HistoryRewrittenError = class extends AgentgateError {
      code = "HISTORY_REWRITTEN";
    };
    BranchExistsError = class extends AgentgateError {
      code = "BRANCH_EXISTS";
    };
    ConcurrentUpdateError = class extends AgentgateError {
      code = "CONCURRENT_UPDATE";
    };
    CherryPickConflictError = class extends AgentgateError {
      code = "CHERRY_PICK_CONFLICT";
    };
    EmptySnapshotError = class extends AgentgateError {
      code = "EMPTY_SNAPSHOT";
    };
    StoreCorruptError = class extends AgentgateError {
      code = "STORE_CORRUPT";
    };
    WriteFailedError = class extends AgentgateError {
      code = "WRITE_FAILED";
    };
    LockTimeoutError = class extends AgentgateError {
      code = "LOCK_TIMEOUT";
    };
    ConfigInvalidError = class extends AgentgateError {
      code = "CONFIG_INVALID";
    };
    CheckpointNotFoundError = class extends AgentgateError {
      code = "CHECKPOINT_NOT_FOUND";
    };
    GitNotFoundError = class extends AgentgateError {
      code = "GIT_NOT_FOUND";
    };
    GitTimeoutError = class extends AgentgateError {
      code = "GIT_TIMEOUT";
    };
    GitFailedError = class extends AgentgateError {
      code = "GIT_FAILED";
    };
    CiEnvironmentError = class extends AgentgateError {
      code = "CI_ENV_MISSING";
    };
    InvalidRequestError = class extends AgentgateError {
      code = "INVALID_REQUEST";
      exitCode = 2;
    };
    RemoteNotFoundError = class extends AgentgateError {
      code = "REMOTE_NOT_FOUND";
    };
    PushRejectedError = class extends AgentgateError {
      code = "PUSH_REJECTED";
    };
    BundleInvalidError = class extends AgentgateError {
      code = "BUNDLE_INVALID";
    };
    UnsafeRemoteError = class extends AgentgateError {
      code = "REMOTE_UNSAFE";
    };
    DiskFullError = class extends AgentgateError {
      code = "DISK_FULL";
    };
    UnsafeRepositoryOwnerError = class extends AgentgateError {
      code = "UNSAFE_REPOSITORY_OWNER";
    };
    IndexLockedError = class extends AgentgateError {
      code = "INDEX_LOCKED";
    };
    ObjectMissingError = class extends AgentgateError {
      code = "OBJECT_MISSING";
    };
    LfsUnsupportedError = class extends AgentgateError {
      code = "LFS_UNSUPPORTED";
    };
    RunWorkspaceMismatchError = class extends AgentgateError {
      code = "RUN_WORKSPACE_MISMATCH";
    };
    NoBeforeStateError = class extends AgentgateError {
      code = "NO_BEFORE_STATE";
    };
    IterationOutOfOrderError = class extends AgentgateError {
      code = "ITERATION_OUT_OF_ORDER";
    };
    NothingToVerifyError = class extends AgentgateError {
      code = "NOTHING_TO_VERIFY";
    };
    GitOutputUnparseableError = class extends AgentgateError {
      code = "GIT_OUTPUT_UNPARSEABLE";
    };
    PathNotFoundError = class extends AgentgateError {
      code = "PATH_NOT_FOUND";
    };
  }
});

// node_modules/zod/v4/core/util.js
var util_exports = {};
__export(util_exports, {
  BIGINT_FORMAT_RANGES: () => BIGINT_FORMAT_RANGES,
  CONSTANT_CATCH: () => CONSTANT_CATCH,
  Class: () => Class,
  NUMBER_FORMAT_RANGES: () => NUMBER_FORMAT_RANGES,
  aborted: () => aborted,
  allowsEval: () => allowsEval,
  assert: () => assert,
  assertEqual: () => assertEqual,
  assertIs: () => assertIs,
  assertNever: () => assertNever,
  assertNotEqual: () => assertNotEqual,
  assignProp: () => assignProp,
  attachSchema: () => attachSchema,
  base64ToUint8Array: () => base64ToUint8Array,
  base64urlToUint8Array: () => base64urlToUint8Array,
  cached: () => cached,
  captureStackTrace: () => captureStackTrace,
  cleanEnum: () => cleanEnum,
  cleanRegex: () => cleanRegex,
  clone: () => clone,
  cloneDef: () => cloneDef,
  codePointLength: () => codePointLength,
  constantCatch: () => constantCatch,
  createTransparentProxy: () => createTransparentProxy,
  defineLazy: () => defineLazy,
  defineLazyInternal: () => defineLazyInternal,
  derived: () => derived,
  esc: () => esc,
  escapeRegex: () => escapeRegex,
  explicitlyAborted: () => explicitlyAborted,
  extend: () => extend,
  finalizeIssue: () => finalizeIssue,
  floatSafeRemainder: () => floatSafeRemainder,
  getElementAtPath: () => getElementAtPath,
  getEnumValues: () => getEnumValues,
  getLengthableOrigin: () => getLengthableOrigin,
  getParsedType: () => getParsedType,
  getSizableOrigin: () => getSizableOrigin,
  hexToUint8Array: () => hexToUint8Array,
  hide: () => hide,
  installLazyProp: () => installLazyProp,
  isObject: () => isObject,
  isPlainObject: () => isPlainObject,
  issue: () => issue,
  joinValues: () => joinValues,
  jsonStringifyReplacer: () => jsonStringifyReplacer,
  members: () => members,
  merge: () => merge,
  mergeDefs: () => mergeDefs,
  normalizeParams: () => normalizeParams,
  nullish: () => nullish,
  numKeys: () => numKeys,
  objectClone: () => objectClone,
  omit: () => omit,
  optionalKeys: () => optionalKeys,
  own: () => own,
  parsedType: () => parsedType,
  partial: () => partial,
  pick: () => pick,
  prefixIssues: () => prefixIssues,
  primitiveTypes: () => primitiveTypes,
  promiseAllObject: () => promiseAllObject,
  propertyKeyTypes: () => propertyKeyTypes,
  randomString: () => randomString,
  rawShape: () => rawShape,
  required: () => required,
  safeExtend: () => safeExtend,
  shallowClone: () => shallowClone,
  sizeCaps: () => sizeCaps,
  slugify: () => slugify,
  stringifyPrimitive: () => stringifyPrimitive,
  toZod: () => toZod,
  uint8ArrayToBase64: () => uint8ArrayToBase64,
  uint8ArrayToBase64url: () => uint8ArrayToBase64url,
  uint8ArrayToHex: () => uint8ArrayToHex,
  unwrapMessage: () => unwrapMessage
});
function assertEqual(val) {
  return val;
}
function assertNotEqual(val) {
  return val;
}
function toZod() {
  return (schema) => schema;
}
function assertIs(_arg) {
}
function assertNever(_x) {
  throw new Error("Unexpected value in exhaustive check");
}
function assert(_) {
}
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
function cached(getter) {
  return new Cached(getter);
}
function nullish(input) {
  return input === null || input === void 0;
}
function cleanRegex(source) {
  const start = source.startsWith("^") ? 1 : 0;
  const end = source.endsWith("$") ? source.length - 1 : source.length;
  return source.slice(start, end);
}
function floatSafeRemainder(val, step) {
  const ratio = val / step;
  const roundedRatio = Math.round(ratio);
  const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1);
  if (Math.abs(ratio - roundedRatio) < tolerance)
    return 0;
  return ratio - roundedRatio;
}
function defineLazy(object2, key, getter) {
  let value = void 0;
  Object.defineProperty(object2, key, {
    get() {
      if (value === EVALUATING) {
        return void 0;
      }
      if (value === void 0) {
        value = EVALUATING;
        value = getter();
      }
      return value;
    },
    set(v) {
      Object.defineProperty(object2, key, {
        value: v
        // configurable: true,
      });
    },
    configurable: true
  });
}
function objectClone(obj) {
  return Object.create(Object.getPrototypeOf(obj), Object.getOwnPropertyDescriptors(obj));
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
function mirrorProps(target, source) {
  for (const key of Reflect.ownKeys(source)) {
    const desc = Object.getOwnPropertyDescriptor(source, key);
    if (!desc.enumerable)
      continue;
    if (desc.get)
      deferProp(target, key, () => source[key]);
    else
      putProp(target, key, desc.value);
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
function cloneDef(schema) {
  return mergeDefs(schema._zod.def);
}
function getElementAtPath(obj, path) {
  if (!path)
    return obj;
  return path.reduce((acc, key) => acc?.[key], obj);
}
function promiseAllObject(promisesObj) {
  const keys = Object.keys(promisesObj);
  const promises = keys.map((key) => promisesObj[key]);
  return Promise.all(promises).then((results) => {
    const resolvedObj = {};
    for (let i = 0; i < keys.length; i++) {
      resolvedObj[keys[i]] = results[i];
    }
    return resolvedObj;
  });
}
function randomString(length = 10) {
  const chars = "abcdefghijklmnopqrstuvwxyz";
  let str = "";
  for (let i = 0; i < length; i++) {
    str += chars[Math.floor(Math.random() * chars.length)];
  }
  return str;
}
function esc(str) {
  return JSON.stringify(str);
}
function slugify(input) {
  return input.toLowerCase().trim().replace(/[^\w\s-]/g, "").replace(/[\s_-]+/g, "-").replace(/^-+|-+$/g, "");
}
function isObject(data) {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}
function isPlainObject(o) {
  if (isObject(o) === false)
    return false;
  const ctor = o.constructor;
  if (ctor === void 0)
    return true;
  if (typeof ctor !== "function")
    return true;
  const prot = ctor.prototype;
  if (isObject(prot) === false)
    return false;
  if (Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf") === false) {
    return false;
  }
  return true;
}
function shallowClone(o) {
  if (isPlainObject(o))
    return { ...o };
  if (Array.isArray(o))
    return [...o];
  if (o instanceof Map)
    return new Map(o);
  if (o instanceof Set)
    return new Set(o);
  return o;
}
function numKeys(data) {
  let keyCount = 0;
  for (const key in data) {
    if (Object.prototype.hasOwnProperty.call(data, key)) {
      keyCount++;
    }
  }
  return keyCount;
}
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
function createTransparentProxy(getter) {
  let target;
  return new Proxy({}, {
    get(_, prop, receiver) {
      target ?? (target = getter());
      return Reflect.get(target, prop, receiver);
    },
    set(_, prop, value, receiver) {
      target ?? (target = getter());
      return Reflect.set(target, prop, value, receiver);
    },
    has(_, prop) {
      target ?? (target = getter());
      return Reflect.has(target, prop);
    },
    deleteProperty(_, prop) {
      target ?? (target = getter());
      return Reflect.deleteProperty(target, prop);
    },
    ownKeys(_) {
      target ?? (target = getter());
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(_, prop) {
      target ?? (target = getter());
      return Reflect.getOwnPropertyDescriptor(target, prop);
    },
    defineProperty(_, prop, descriptor) {
      target ?? (target = getter());
      return Reflect.defineProperty(target, prop, descriptor);
    }
  });
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
function pick(schema, mask) {
  const currDef = schema._zod.def;
  const checks = currDef.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    throw new Error(".pick() cannot be used on object schemas containing refinements");
  }
  const newShape = {};
  mirrorShape(newShape, schema, maskedKeys(schema, mask));
  return clone(schema, mergeDefs(currDef, { shape: newShape, checks: [] }));
}
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
function extend(schema, shape) {
  if (!isPlainObject(shape)) {
    throw new Error("Invalid input to extend: expected a plain object");
  }
  const checks = schema._zod.def.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    const existingShape = sourceShape(schema);
    for (const key of Reflect.ownKeys(shape)) {
      if (Object.getOwnPropertyDescriptor(existingShape, key) !== void 0) {
        throw new Error("Cannot overwrite keys on object schemas containing refinements. Use `.safeExtend()` instead.");
      }
    }
  }
  return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function extended(schema, shape) {
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)));
  mirrorProps(newShape, shape);
  return newShape;
}
function safeExtend(schema, shape) {
  if (!isPlainObject(shape)) {
    throw new Error("Invalid input to safeExtend: expected a plain object");
  }
  return clone(schema, mergeDefs(schema._zod.def, { shape: extended(schema, shape) }));
}
function merge(a, b) {
  if (!b?._zod?.def) {
    throw new Error("Invalid input to merge: expected an object schema. To merge a plain shape, use `.extend()`.");
  }
  if (a._zod.def.checks?.length) {
    throw new Error(".merge() cannot be used on object schemas containing refinements. Use .safeExtend() instead.");
  }
  const newShape = {};
  mirrorShape(newShape, a, Reflect.ownKeys(sourceShape(a)));
  mirrorShape(newShape, b, Reflect.ownKeys(sourceShape(b)));
  const def = mergeDefs(a._zod.def, {
    shape: newShape,
    get catchall() {
      return b._zod.def.catchall;
    },
    checks: b._zod.def.checks ?? []
  });
  return clone(a, def);
}
function partial(Class2, schema, mask, name = "partial") {
  const currDef = schema._zod.def;
  const checks = currDef.checks;
  const hasChecks = checks && checks.length > 0;
  if (hasChecks) {
    throw new Error(`.${name}() cannot be used on object schemas containing refinements`);
  }
  const selected = mask ? new Set(maskedKeys(schema, mask)) : void 0;
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), Class2 && ((value, key) => selected && !selected.has(key) ? value : new Class2({ type: "optional", innerType: value })));
  return clone(schema, mergeDefs(schema._zod.def, { shape: newShape, checks: [] }));
}
function required(Class2, schema, mask) {
  const selected = mask ? new Set(maskedKeys(schema, mask)) : void 0;
  const newShape = {};
  mirrorShape(newShape, schema, Reflect.ownKeys(sourceShape(schema)), (value, key) => (
    // overwrite with non-optional
    selected && !selected.has(key) ? value : new Class2({ type: "nonoptional", innerType: value })
  ));
  return clone(schema, mergeDefs(schema._zod.def, { shape: newShape }));
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
    var _a3;
    (_a3 = iss).path ?? (_a3.path = []);
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
  var _a3;
  for (let i = start; i < issues.length; i++) {
    (_a3 = issues[i]).schema ?? (_a3.schema = inst);
  }
}
function finalizeIssue(iss, ctx, config2) {
  var _a3;
  const traits = iss.inst?._zod?.traits;
  if (traits?.has("$ZodType")) {
    if (traits.has("$ZodCheck"))
      (_a3 = iss).schema ?? (_a3.schema = iss.inst);
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
function getSizableOrigin(input) {
  if (input instanceof Set)
    return "set";
  if (input instanceof Map)
    return "map";
  if (input instanceof File)
    return "file";
  return "unknown";
}
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
function getLengthableOrigin(input) {
  if (Array.isArray(input))
    return "array";
  if (typeof input === "string")
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
  const [iss, input, inst] = args;
  if (typeof iss === "string") {
    return {
      message: iss,
      code: "custom",
      input,
      inst
    };
  }
  return { ...iss };
}
function cleanEnum(obj) {
  return Object.entries(obj).filter(([k, _]) => {
    return Number.isNaN(Number.parseInt(k, 10));
  }).map((el) => el[1]);
}
function base64ToUint8Array(base642) {
  const binaryString = atob(base642);
  const bytes = new Uint8Array(binaryString.length);
  for (let i = 0; i < binaryString.length; i++) {
    bytes[i] = binaryString.charCodeAt(i);
  }
  return bytes;
}
function uint8ArrayToBase64(bytes) {
  let binaryString = "";
  for (let i = 0; i < bytes.length; i++) {
    binaryString += String.fromCharCode(bytes[i]);
  }
  return btoa(binaryString);
}
function base64urlToUint8Array(base64url2) {
  const base642 = base64url2.replace(/-/g, "+").replace(/_/g, "/");
  const padding = "=".repeat((4 - base642.length % 4) % 4);
  return base64ToUint8Array(base642 + padding);
}
function uint8ArrayToBase64url(bytes) {
  return uint8ArrayToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}
function hexToUint8Array(hex) {
  const cleanHex = hex.replace(/^0x/, "");
  if (cleanHex.length % 2 !== 0) {
    throw new Error("Invalid hex string length");
  }
  const bytes = new Uint8Array(cleanHex.length / 2);
  for (let i = 0; i < cleanHex.length; i += 2) {
    bytes[i / 2] = Number.parseInt(cleanHex.slice(i, i + 2), 16);
  }
  return bytes;
}
function uint8ArrayToHex(bytes) {
  return Array.from(bytes).map((b) => b.toString(16).padStart(2, "0")).join("");
}
function members(proto, table2) {
  for (const key in table2) {
    const desc = Object.getOwnPropertyDescriptor(table2, key);
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
// @__NO_SIDE_EFFECTS__
function derived(computes, table2) {
  for (const key in computes) {
    const compute = computes[key];
    Object.defineProperty(table2, key, {
      configurable: true,
      enumerable: true,
      get() {
        return own(this, key, compute(this));
      },
      set(value) {
        own(this, key, value);
      }
    });
  }
  return table2;
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
function constantCatch(value) {
  const fn = () => value;
  fn[CONSTANT_CATCH] = true;
  return fn;
}
var Cached, EVALUATING, captureStackTrace, allowsEval, getParsedType, propertyKeyTypes, primitiveTypes, NUMBER_FORMAT_RANGES, BIGINT_FORMAT_RANGES, highSurrogate, Class, installing, broke, breaker, CONSTANT_CATCH;
var init_util = __esm({
  "node_modules/zod/v4/core/util.js"() {
    init_core();
    Cached = class {
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
    EVALUATING = /* @__PURE__ */ Symbol("evaluating");
    captureStackTrace = "captureStackTrace" in Error ? Error.captureStackTrace : (..._args) => {
    };
    allowsEval = /* @__PURE__ */ cached(() => {
      if (globalConfig.jitless) {
        return false;
      }
      if (typeof navigator !== "undefined" && navigator?.userAgent?.includes("Cloudflare")) {
        return false;
      }
      try {
        const F = Function;
        new F("");
        return true;
      } catch (_) {
        return false;
      }
    });
    getParsedType = (data) => {
      const t = typeof data;
      switch (t) {
        case "undefined":
          return "undefined";
        case "string":
          return "string";
        case "number":
          return Number.isNaN(data) ? "nan" : "number";
        case "boolean":
          return "boolean";
        case "function":
          return "function";
        case "bigint":
          return "bigint";
        case "symbol":
          return "symbol";
        case "object":
          if (Array.isArray(data)) {
            return "array";
          }
          if (data === null) {
            return "null";
          }
          if (data.then && typeof data.then === "function" && data.catch && typeof data.catch === "function") {
            return "promise";
          }
          if (typeof Map !== "undefined" && data instanceof Map) {
            return "map";
          }
          if (typeof Set !== "undefined" && data instanceof Set) {
            return "set";
          }
          if (typeof Date !== "undefined" && data instanceof Date) {
            return "date";
          }
          if (typeof File !== "undefined" && data instanceof File) {
            return "file";
          }
          return "object";
        default:
          throw new Error(`Unknown data type: ${t}`);
      }
    };
    propertyKeyTypes = /* @__PURE__ */ new Set(["string", "number", "symbol"]);
    primitiveTypes = /* @__PURE__ */ new Set([
      "string",
      "number",
      "bigint",
      "boolean",
      "symbol",
      "undefined"
    ]);
    NUMBER_FORMAT_RANGES = /* @__PURE__ */ (() => ({
      safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
      int32: [-2147483648, 2147483647],
      uint32: [0, 4294967295],
      float32: [-34028234663852886e22, 34028234663852886e22],
      float64: [-Number.MAX_VALUE, Number.MAX_VALUE]
    }))();
    BIGINT_FORMAT_RANGES = {
      int64: [/* @__PURE__ */ BigInt("-9223372036854775808"), /* @__PURE__ */ BigInt("9223372036854775807")],
      uint64: [/* @__PURE__ */ BigInt(0), /* @__PURE__ */ BigInt("18446744073709551615")]
    };
    highSurrogate = /[\uD800-\uDBFF]/;
    Class = class {
      constructor(..._args) {
      }
    };
    broke = false;
    breaker = {
      configurable: true,
      get() {
        broke = true;
        return void 0;
      }
    };
    CONSTANT_CATCH = "~constantCatch";
  }
});

// node_modules/zod/v4/core/core.js
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
function $constructor(name, initializer3, proto, params) {
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
    initializer3(inst, def);
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
    const deferred = inst._zod.deferred;
    if (deferred) {
      for (const fn of deferred) {
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
function config(newConfig) {
  if (newConfig)
    Object.assign(globalConfig, newConfig);
  return globalConfig;
}
var _a, _zodDesc, _E, $ZodAsyncError, $ZodEncodeError, globalConfig;
var init_core = __esm({
  "node_modules/zod/v4/core/core.js"() {
    init_util();
    _zodDesc = { value: void 0, enumerable: false };
    _E = "captureStackTrace" in Error ? Error : null;
    $ZodAsyncError = class extends Error {
      constructor() {
        super(`Encountered Promise during synchronous parse. Use .parseAsync() instead.`);
      }
    };
    $ZodEncodeError = class extends Error {
      constructor(name) {
        super(`Encountered unidirectional transform during encode: ${name}`);
        this.name = "ZodEncodeError";
      }
    };
    (_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});
    globalConfig = globalThis.__zod_globalConfig;
  }
});

// node_modules/zod/v4/core/errors.js
function _getMessage() {
  const internals = this._zod;
  internals.message ?? (internals.message = JSON.stringify(internals.def, jsonStringifyReplacer, 2));
  return internals.message;
}
function _setMessage(value) {
  this._zod.message = value;
}
function node(obj, key, make) {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) {
    if (key === "__proto__") {
      Object.defineProperty(obj, key, { value: make(), writable: true, enumerable: true, configurable: true });
    } else {
      obj[key] = make();
    }
  }
  return obj[key];
}
function flattenError(error2, mapper = (issue2) => issue2.message) {
  const fieldErrors = {};
  const formErrors = [];
  for (const sub of error2.issues) {
    if (sub.path.length > 0) {
      node(fieldErrors, sub.path[0], () => []).push(mapper(sub));
    } else {
      formErrors.push(mapper(sub));
    }
  }
  return { formErrors, fieldErrors };
}
function formatError(error2, mapper = (issue2) => issue2.message) {
  const fieldErrors = { _errors: [] };
  const processError = (error3, path = []) => {
    for (const issue2 of error3.issues) {
      if (issue2.code === "invalid_union" && issue2.errors.length) {
        issue2.errors.map((issues) => processError({ issues }, [...path, ...issue2.path]));
      } else if (issue2.code === "invalid_key") {
        processError({ issues: issue2.issues }, [...path, ...issue2.path]);
      } else if (issue2.code === "invalid_element") {
        processError({ issues: issue2.issues }, [...path, ...issue2.path]);
      } else {
        const fullpath = [...path, ...issue2.path];
        if (fullpath.length === 0) {
          fieldErrors._errors.push(mapper(issue2));
        } else {
          let curr = fieldErrors;
          let i = 0;
          while (i < fullpath.length) {
            const el = fullpath[i];
            const terminal = i === fullpath.length - 1;
            if (el === "_errors") {
              if (terminal)
                curr._errors.push(mapper(issue2));
              i++;
              continue;
            }
            if (!Object.prototype.hasOwnProperty.call(curr, el)) {
              Object.defineProperty(curr, el, {
                value: { _errors: [] },
                enumerable: true,
                writable: true,
                configurable: true
              });
            }
            const node2 = curr[el];
            if (terminal) {
              node2._errors.push(mapper(issue2));
            }
            curr = node2;
            i++;
          }
        }
      }
    }
  };
  processError(error2);
  return fieldErrors;
}
var _messageDesc, _issuesDesc, _installedToString, initializer, $ZodError, $ZodRealError;
var init_errors2 = __esm({
  "node_modules/zod/v4/core/errors.js"() {
    init_core();
    init_util();
    _messageDesc = {
      get: _getMessage,
      set: _setMessage,
      enumerable: true,
      configurable: true
    };
    _issuesDesc = { value: void 0, enumerable: false };
    _installedToString = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
    initializer = (inst, def) => {
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
    $ZodError = $constructor("$ZodError", initializer);
    $ZodRealError = $constructor("$ZodError", initializer, void 0, {
      Parent: Error
    });
  }
});

// node_modules/zod/v4/core/parse.js
function finalizeParams(callee, params) {
  return { callee: params?.callee ?? callee, Err: params?.Err };
}
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
function validateFallback(schema, value, _ctx) {
  const ctx = _ctx ? { ..._ctx, async: false, abortEarly: true } : { async: false, abortEarly: true };
  const fallbackRun = schema._zod.bag.fallbackRun;
  let result;
  if (fallbackRun) {
    ctx[COMPILE_FALLBACK] = true;
    result = fallbackRun({ value, issues: [] }, ctx);
  } else {
    result = schema._zod.run({ value, issues: [] }, ctx);
  }
  if (result instanceof Promise) {
    throw new $ZodAsyncError();
  }
  return result.issues.length === 0;
}
var _parse, _parseAsync, _safeParse, _safeParseAsync, COMPILE_INVALID, COMPILE_FALLBACK, validate, validateAsync, _encode, _decode, _encodeAsync, _decodeAsync, _safeEncode, _safeDecode, _safeEncodeAsync, _safeDecodeAsync;
var init_parse = __esm({
  "node_modules/zod/v4/core/parse.js"() {
    init_core();
    init_util();
    _parse = (_Err) => {
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
    _parseAsync = (_Err) => {
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
    _safeParse = (_Err) => (schema, value, _ctx) => {
      const ctx = _ctx ? { ..._ctx, async: false } : { async: false };
      const result = schema._zod.run({ value, issues: [] }, ctx);
      if (result instanceof Promise) {
        throw new $ZodAsyncError();
      }
      return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
    };
    _safeParseAsync = (_Err) => async (schema, value, _ctx) => {
      const ctx = _ctx ? { ..._ctx, async: true } : { async: true };
      let result = schema._zod.run({ value, issues: [] }, ctx);
      if (result instanceof Promise)
        result = await result;
      return result.issues.length ? failure(_Err, result.issues, ctx) : { success: true, data: result.value };
    };
    COMPILE_INVALID = /* @__PURE__ */ Symbol.for("zod.compile.invalid");
    COMPILE_FALLBACK = /* @__PURE__ */ Symbol.for("zod.compile.fallback");
    validate = ((schema, value, _ctx) => {
      const validator = schema._zod.bag.validator;
      if (validator !== void 0) {
        if (validator(value) !== COMPILE_INVALID)
          return true;
        if (validator.definite === true && _ctx === void 0)
          return false;
      }
      return validateFallback(schema, value, _ctx);
    });
    validateAsync = async (schema, value, _ctx) => {
      const ctx = _ctx ? { ..._ctx, async: true, abortEarly: true } : { async: true, abortEarly: true };
      let result = schema._zod.run({ value, issues: [] }, ctx);
      if (result instanceof Promise)
        result = await result;
      return result.issues.length === 0;
    };
    _encode = (_Err) => {
      const parse2 = _parse(_Err);
      const fn = (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return parse2(schema, value, ctx, finalizeParams(fn, _params));
      };
      return fn;
    };
    _decode = (_Err) => {
      const parse2 = _parse(_Err);
      const fn = (schema, value, _ctx, _params) => {
        return parse2(schema, value, _ctx, finalizeParams(fn, _params));
      };
      return fn;
    };
    _encodeAsync = (_Err) => {
      const parseAsync2 = _parseAsync(_Err);
      const fn = async (schema, value, _ctx, _params) => {
        const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
        return await parseAsync2(schema, value, ctx, finalizeParams(fn, _params));
      };
      return fn;
    };
    _decodeAsync = (_Err) => {
      const parseAsync2 = _parseAsync(_Err);
      const fn = async (schema, value, _ctx, _params) => {
        return await parseAsync2(schema, value, _ctx, finalizeParams(fn, _params));
      };
      return fn;
    };
    _safeEncode = (_Err) => (schema, value, _ctx) => {
      const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
      return _safeParse(_Err)(schema, value, ctx);
    };
    _safeDecode = (_Err) => (schema, value, _ctx) => {
      return _safeParse(_Err)(schema, value, _ctx);
    };
    _safeEncodeAsync = (_Err) => async (schema, value, _ctx) => {
      const ctx = _ctx ? { ..._ctx, direction: "backward" } : { direction: "backward" };
      return _safeParseAsync(_Err)(schema, value, ctx);
    };
    _safeDecodeAsync = (_Err) => async (schema, value, _ctx) => {
      return _safeParseAsync(_Err)(schema, value, _ctx);
    };
  }
});

// node_modules/zod/v4/core/regexes.js
function nanoidOfLength(length) {
  return new RegExp(`^[a-zA-Z0-9_-]{${length}}$`);
}
function emoji() {
  return new RegExp(_emoji, "u");
}
function anchor(source) {
  return new RegExp(`^${source}$`);
}
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
var cuid, cuid2, ulid, xid, ksuid, nanoid, duration, guid, uuid, email, _emoji, ipv4, ipv6, cidrv4, cidrv6, base64, base64url, httpProtocol, e164, dateSource, date, anyString, integer, number, boolean, lowercase, uppercase;
var init_regexes = __esm({
  "node_modules/zod/v4/core/regexes.js"() {
    cuid = /^[cC][0-9a-z]{6,}$/;
    cuid2 = /^[0-9a-z]+$/;
    ulid = /^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/;
    xid = /^[0-9a-vA-V]{20}$/;
    ksuid = /^[A-Za-z0-9]{27}$/;
    nanoid = /^[a-zA-Z0-9_-]{21}$/;
    duration = /^P(?:(\d+W)|(?!.*W)(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+([.,]\d+)?S)?)?)$/;
    guid = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
    uuid = (version2) => {
      if (!version2)
        return /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
      return new RegExp(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-${version2}[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12})$`);
    };
    email = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
    _emoji = `^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$`;
    ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
    ipv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$/;
    cidrv4 = /^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])\/([0-9]|[1-2][0-9]|3[0-2])$/;
    cidrv6 = /^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))\/(12[0-8]|1[01][0-9]|[1-9]?[0-9])$/;
    base64 = /^$|^(?:[0-9a-zA-Z+/]{4})*(?:(?:[0-9a-zA-Z+/]{2}==)|(?:[0-9a-zA-Z+/]{3}=))?$/;
    base64url = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;
    httpProtocol = /^https?$/;
    e164 = /^\+[1-9]\d{6,14}$/;
    dateSource = `(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))`;
    date = /* @__PURE__ */ anchor(dateSource);
    anyString = /^[\s\S]{0,}$/;
    integer = /^-?\d+$/;
    number = /^-?\d+(?:\.\d+)?$/;
    boolean = /^(?:true|false)$/i;
    lowercase = /^[^A-Z]*$/;
    uppercase = /^[^a-z]*$/;
  }
});

// node_modules/zod/v4/core/checks.js
var $ZodCheck, _whenHasLength, numericOriginMap, $ZodCheckLessThan, $ZodCheckGreaterThan, $ZodCheckMultipleOf, $ZodCheckNumberFormat, $ZodCheckMaxLength, $ZodCheckMinLength, $ZodCheckLengthEquals, $ZodCheckStringFormat, $ZodCheckRegex, $ZodCheckLowerCase, $ZodCheckUpperCase, $ZodCheckIncludes, $ZodCheckStartsWith, $ZodCheckEndsWith, $ZodCheckOverwrite;
var init_checks = __esm({
  "node_modules/zod/v4/core/checks.js"() {
    init_core();
    init_regexes();
    init_util();
    $ZodCheck = /* @__PURE__ */ $constructor("$ZodCheck", (inst, def) => {
      var _a3;
      inst._zod ?? (inst._zod = {});
      inst._zod.def = def;
      (_a3 = inst._zod).onattach ?? (_a3.onattach = []);
    });
    _whenHasLength = (payload) => {
      const val = payload.value;
      return !nullish(val) && val.length !== void 0;
    };
    numericOriginMap = {
      number: "number",
      bigint: "bigint",
      object: "date"
    };
    $ZodCheckLessThan = /* @__PURE__ */ $constructor("$ZodCheckLessThan", (inst, def) => {
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
    $ZodCheckGreaterThan = /* @__PURE__ */ $constructor("$ZodCheckGreaterThan", (inst, def) => {
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
    $ZodCheckMultipleOf = /* @__PURE__ */ $constructor("$ZodCheckMultipleOf", (inst, def) => {
      $ZodCheck.init(inst, def);
      inst._zod.check = (payload) => {
        if (typeof payload.value !== typeof def.value)
          throw new Error("Cannot mix number and bigint in multiple_of check.");
        const isMultiple = typeof payload.value === "bigint" ? (
          // `value % 0n` throws, and nothing is a multiple of zero — the number branch already fails this way via NaN
          def.value !== BigInt(0) && payload.value % def.value === BigInt(0)
        ) : floatSafeRemainder(payload.value, def.value) === 0;
        if (isMultiple)
          return;
        payload.issues.push({
          origin: typeof payload.value,
          code: "not_multiple_of",
          divisor: def.value,
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodCheckNumberFormat = /* @__PURE__ */ $constructor("$ZodCheckNumberFormat", (inst, def) => {
      $ZodCheck.init(inst, def);
      def.format = def.format || "float64";
      const isInt = def.format?.includes("int");
      const origin = isInt ? "int" : "number";
      const [minimum, maximum] = NUMBER_FORMAT_RANGES[def.format];
      inst._zod.check = (payload) => {
        const input = payload.value;
        if (isInt) {
          if (!Number.isInteger(input)) {
            payload.issues.push({
              expected: origin,
              format: def.format,
              code: "invalid_type",
              continue: false,
              input,
              inst
            });
            return;
          }
          if (!Number.isSafeInteger(input)) {
            if (input > 0) {
              payload.issues.push({
                input,
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
                input,
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
        if (input < minimum) {
          payload.issues.push({
            origin: "number",
            input,
            code: "too_small",
            minimum,
            inclusive: true,
            inst,
            continue: !def.abort
          });
        }
        if (input > maximum) {
          payload.issues.push({
            origin: "number",
            input,
            code: "too_big",
            maximum,
            inclusive: true,
            inst,
            continue: !def.abort
          });
        }
      };
    });
    $ZodCheckMaxLength = /* @__PURE__ */ $constructor("$ZodCheckMaxLength", (inst, def) => {
      var _a3;
      $ZodCheck.init(inst, def);
      (_a3 = inst._zod.def).when ?? (_a3.when = _whenHasLength);
      inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        const length = typeof input === "string" && units > def.maximum ? codePointLength(input) : units;
        if (length <= def.maximum)
          return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
          origin,
          code: "too_big",
          maximum: def.maximum,
          inclusive: true,
          input,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodCheckMinLength = /* @__PURE__ */ $constructor("$ZodCheckMinLength", (inst, def) => {
      var _a3;
      $ZodCheck.init(inst, def);
      (_a3 = inst._zod.def).when ?? (_a3.when = _whenHasLength);
      inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        const length = typeof input === "string" && units >= def.minimum && units < def.minimum * 2 ? codePointLength(input) : units;
        if (length >= def.minimum)
          return;
        const origin = getLengthableOrigin(input);
        payload.issues.push({
          origin,
          code: "too_small",
          minimum: def.minimum,
          inclusive: true,
          input,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodCheckLengthEquals = /* @__PURE__ */ $constructor("$ZodCheckLengthEquals", (inst, def) => {
      var _a3;
      $ZodCheck.init(inst, def);
      (_a3 = inst._zod.def).when ?? (_a3.when = _whenHasLength);
      inst._zod.check = (payload) => {
        const input = payload.value;
        const units = input.length;
        const length = typeof input === "string" && units >= def.length && units <= def.length * 2 ? codePointLength(input) : units;
        if (length === def.length)
          return;
        const origin = getLengthableOrigin(input);
        const tooBig = length > def.length;
        payload.issues.push({
          origin,
          ...tooBig ? { code: "too_big", maximum: def.length } : { code: "too_small", minimum: def.length },
          inclusive: true,
          exact: true,
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodCheckStringFormat = /* @__PURE__ */ $constructor("$ZodCheckStringFormat", (inst, def) => {
      var _a3, _b;
      $ZodCheck.init(inst, def);
      if (def.pattern)
        (_a3 = inst._zod).check ?? (_a3.check = (payload) => {
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
    $ZodCheckRegex = /* @__PURE__ */ $constructor("$ZodCheckRegex", (inst, def) => {
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
    $ZodCheckLowerCase = /* @__PURE__ */ $constructor("$ZodCheckLowerCase", (inst, def) => {
      def.pattern ?? (def.pattern = lowercase);
      $ZodCheckStringFormat.init(inst, def);
    });
    $ZodCheckUpperCase = /* @__PURE__ */ $constructor("$ZodCheckUpperCase", (inst, def) => {
      def.pattern ?? (def.pattern = uppercase);
      $ZodCheckStringFormat.init(inst, def);
    });
    $ZodCheckIncludes = /* @__PURE__ */ $constructor("$ZodCheckIncludes", (inst, def) => {
      $ZodCheck.init(inst, def);
      const escapedRegex = escapeRegex(def.includes);
      const pattern = new RegExp(typeof def.position === "number" ? `^.{${def.position},}${escapedRegex}` : escapedRegex);
      def.pattern = pattern;
      inst._zod.check = (payload) => {
        if (payload.value.includes(def.includes, def.position))
          return;
        payload.issues.push({
          origin: "string",
          code: "invalid_format",
          format: "includes",
          includes: def.includes,
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodCheckStartsWith = /* @__PURE__ */ $constructor("$ZodCheckStartsWith", (inst, def) => {
      $ZodCheck.init(inst, def);
      const pattern = new RegExp(`^${escapeRegex(def.prefix)}.*`);
      def.pattern ?? (def.pattern = pattern);
      inst._zod.check = (payload) => {
        if (payload.value.startsWith(def.prefix))
          return;
        payload.issues.push({
          origin: "string",
          code: "invalid_format",
          format: "starts_with",
          prefix: def.prefix,
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodCheckEndsWith = /* @__PURE__ */ $constructor("$ZodCheckEndsWith", (inst, def) => {
      $ZodCheck.init(inst, def);
      const pattern = new RegExp(`.*${escapeRegex(def.suffix)}$`);
      def.pattern ?? (def.pattern = pattern);
      inst._zod.check = (payload) => {
        if (payload.value.endsWith(def.suffix))
          return;
        payload.issues.push({
          origin: "string",
          code: "invalid_format",
          format: "ends_with",
          suffix: def.suffix,
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodCheckOverwrite = /* @__PURE__ */ $constructor("$ZodCheckOverwrite", (inst, def) => {
      $ZodCheck.init(inst, def);
      inst._zod.check = (payload) => {
        payload.value = def.tx(payload.value);
      };
    });
  }
});

// node_modules/zod/v4/core/doc.js
var Doc;
var init_doc = __esm({
  "node_modules/zod/v4/core/doc.js"() {
    Doc = class {
      constructor(args = [], closed = {}) {
        this.content = [];
        this.indent = 0;
        this.args = args;
        this.closed = closed;
      }
      // the compiler catches a child's throw and keeps writing into this doc, so the indent has to unwind with it
      indented(fn) {
        this.indent += 1;
        try {
          fn(this);
        } finally {
          this.indent -= 1;
        }
      }
      write(arg) {
        if (typeof arg === "function") {
          arg(this, { execution: "sync" });
          arg(this, { execution: "async" });
          return;
        }
        const content = arg;
        const lines = content.split("\n").filter((x) => x);
        const minIndent = Math.min(...lines.map((x) => x.length - x.trimStart().length));
        const dedented = lines.map((x) => x.slice(minIndent)).map((x) => " ".repeat(this.indent * 2) + x);
        for (const line of dedented) {
          this.content.push(line);
        }
      }
      compile() {
        const F = Function;
        const content = this?.content ?? [``];
        const factory = new F(...Object.keys(this.closed), `return function (${this.args.join(", ")}) {
${content.join("\n")}
};`);
        return factory(...Object.values(this.closed));
      }
    };
  }
});

// node_modules/zod/v4/core/versions.js
var version;
var init_versions = __esm({
  "node_modules/zod/v4/core/versions.js"() {
    version = {
      major: 4,
      minor: 6,
      patch: 7
    };
  }
});

// node_modules/zod/v4/core/schemas.js
async function validateAsync2(inst, value) {
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
      return validateAsync2(inst, value);
    },
    vendor: "zod",
    version: 1
  };
}
function canParseURL(input) {
  try {
    if (typeof URL !== "undefined" && typeof URL.canParse === "function")
      return URL.canParse(input);
    new URL(input);
    return true;
  } catch {
    return false;
  }
}
function validateURL(trimmed, def) {
  if (!("normalize" in def) && !("hostname" in def) && !("protocol" in def)) {
    return canParseURL(trimmed) || URL_UNPARSEABLE;
  }
  return parseURLObject(trimmed, def);
}
function parseURLObject(trimmed, def) {
  if (!def.normalize && def.protocol?.source === httpProtocol.source && !/^https?:\/\//i.test(trimmed)) {
    return URL_BAD_FORMAT;
  }
  try {
    if (typeof URL !== "undefined") {
      const URLStatic = URL;
      if (typeof URLStatic.parse === "function")
        return URLStatic.parse(trimmed) ?? URL_UNPARSEABLE;
    }
    return new URL(trimmed);
  } catch {
    return URL_UNPARSEABLE;
  }
}
function stripTabAndNewline(value) {
  return value.replace(asciiTabOrNewline, "");
}
function urlHostnameOk(url, hostname2) {
  hostname2.lastIndex = 0;
  return hostname2.test(url.hostname);
}
function urlProtocolOk(url, protocol) {
  protocol.lastIndex = 0;
  return protocol.test(url.protocol.endsWith(":") ? url.protocol.slice(0, -1) : url.protocol);
}
function isValidIPv6(value) {
  if (!ipv6Alphabet.test(value))
    return false;
  return canParseURL(`http://[${value}]`);
}
function isValidCIDRv6(value) {
  const parts = value.split("/");
  if (parts.length !== 2)
    return false;
  const [address, prefix] = parts;
  if (!prefix)
    return false;
  const prefixNum = Number(prefix);
  if (`${prefixNum}` !== prefix)
    return false;
  if (prefixNum < 0 || prefixNum > 128)
    return false;
  return isValidIPv6(address);
}
function isValidBase64(data) {
  if (data === "")
    return true;
  if (/\s/.test(data))
    return false;
  if (data.length % 4 !== 0)
    return false;
  try {
    atob(data);
    return true;
  } catch {
    return false;
  }
}
function isValidBase64URL(data) {
  if (!base64urlCharset.test(data))
    return false;
  const base642 = data.replace(/[-_]/g, (c) => c === "-" ? "+" : "/");
  const padded = base642.padEnd(Math.ceil(base642.length / 4) * 4, "=");
  return isValidBase64(padded);
}
function isValidJWT(token, algorithm = null) {
  try {
    const tokensParts = token.split(".");
    if (tokensParts.length !== 3)
      return false;
    const [header] = tokensParts;
    if (!header)
      return false;
    const parsedHeader = JSON.parse(atob(header));
    if ("typ" in parsedHeader && parsedHeader?.typ !== "JWT")
      return false;
    if (!parsedHeader.alg)
      return false;
    if (algorithm && (!("alg" in parsedHeader) || parsedHeader.alg !== algorithm))
      return false;
    return true;
  } catch {
    return false;
  }
}
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
function handleArrayResult(result, final, index) {
  if (result.issues.length) {
    final.issues.push(...prefixIssues(index, result.issues));
  }
  final.value[index] = result.value;
}
function handlePropertyResult(result, final, key, input, optin, optout) {
  const isPresent = key in input;
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
function handleCatchall(proms, input, payload, ctx, def, inst, abortEarly) {
  const unrecognized = [];
  const keySet = def.keySet;
  const _catchall = def.catchall._zod;
  const t = _catchall.def.type;
  const optin = _catchall.optin;
  const optout = _catchall.optout;
  let seen = 0;
  for (const key in input) {
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
    const r = _catchall.run({ value: input[key], issues: [] }, ctx);
    if (r instanceof Promise) {
      proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input, optin, optout)));
    } else {
      handlePropertyResult(r, payload, key, input, optin, optout);
    }
  }
  if (unrecognized.length) {
    payload.issues.push({
      code: "unrecognized_keys",
      keys: unrecognized,
      input,
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
function handleUnionResults(results, final, inst, ctx) {
  for (const result of results) {
    if (result.issues.length === 0) {
      final.value = result.value;
      return final;
    }
  }
  const nonaborted = results.filter((r) => !aborted(r));
  if (nonaborted.length === 1) {
    final.value = nonaborted[0].value;
    return nonaborted[0];
  }
  final.issues.push({
    code: "invalid_union",
    input: final.value,
    inst,
    errors: results.map((result) => result.issues.map((iss) => finalizeIssue(iss, ctx, config())))
  });
  return final;
}
function mergeValues(a, b) {
  if (a === b) {
    return { valid: true, data: a };
  }
  if (a instanceof Date && b instanceof Date && +a === +b) {
    return { valid: true, data: a };
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const bKeys = Object.keys(b);
    const sharedKeys = Object.keys(a).filter((key) => bKeys.indexOf(key) !== -1);
    const newObj = { ...a, ...b };
    if (Object.prototype.hasOwnProperty.call(newObj, "__proto__"))
      delete newObj.__proto__;
    for (const key of sharedKeys) {
      if (key === "__proto__")
        continue;
      const sharedValue = mergeValues(a[key], b[key]);
      if (!sharedValue.valid) {
        return {
          valid: false,
          mergeErrorPath: [key, ...sharedValue.mergeErrorPath]
        };
      }
      newObj[key] = sharedValue.data;
    }
    return { valid: true, data: newObj };
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      return { valid: false, mergeErrorPath: [] };
    }
    const newArray = [];
    for (let index = 0; index < a.length; index++) {
      const itemA = a[index];
      const itemB = b[index];
      const sharedValue = mergeValues(itemA, itemB);
      if (!sharedValue.valid) {
        return {
          valid: false,
          mergeErrorPath: [index, ...sharedValue.mergeErrorPath]
        };
      }
      newArray.push(sharedValue.data);
    }
    return { valid: true, data: newArray };
  }
  return { valid: false, mergeErrorPath: [] };
}
function handleIntersectionResults(result, left, right) {
  const unrecKeys = /* @__PURE__ */ new Map();
  let unrecIssue;
  const keyIssues = /* @__PURE__ */ new Map();
  const collect = (iss, side) => {
    let keys;
    if (iss.code === "unrecognized_keys" && !iss.path?.length) {
      unrecIssue ?? (unrecIssue = iss);
      keys = iss.keys;
    } else if (iss.code === "invalid_key" && iss.origin === "record" && iss.path?.length === 1) {
      const k = String(iss.path[0]);
      if (!keyIssues.has(k))
        keyIssues.set(k, iss);
      keys = [k];
    } else {
      return false;
    }
    for (const k of keys) {
      if (!unrecKeys.has(k))
        unrecKeys.set(k, {});
      unrecKeys.get(k)[side] = true;
    }
    return true;
  };
  for (const iss of left.issues) {
    if (!collect(iss, "l"))
      result.issues.push(iss);
  }
  for (const iss of right.issues) {
    if (!collect(iss, "r"))
      result.issues.push(iss);
  }
  const bothKeys = [...unrecKeys].filter(([, f]) => f.l && f.r).map(([k]) => k);
  if (bothKeys.length) {
    const aggregated = unrecIssue ? bothKeys.filter((k) => unrecIssue.keys.includes(k)) : [];
    if (aggregated.length)
      result.issues.push({ ...unrecIssue, keys: aggregated });
    for (const k of bothKeys) {
      if (!aggregated.includes(k) && keyIssues.has(k))
        result.issues.push(keyIssues.get(k));
    }
  }
  const merged = mergeValues(left.value, right.value);
  if (!merged.valid) {
    if (aborted(result))
      return result;
    throw new Error(`Unmergable intersection. Error path: ${JSON.stringify(merged.mergeErrorPath)}`);
  }
  result.value = merged.data;
  return result;
}
function handleOptionalResult(payload, result) {
  payload.value = result.issues.length ? void 0 : result.value;
  return payload;
}
function handleDefaultResult(payload, def) {
  if (payload.value === void 0) {
    payload.value = def.defaultValue;
  }
  return payload;
}
function handleNonOptionalResult(payload, inst) {
  if (!payload.issues.length && payload.value === void 0) {
    payload.issues.push({
      code: "invalid_type",
      expected: "nonoptional",
      input: payload.value,
      inst
    });
  }
  return payload;
}
function handleCatchResult(payload, result, def, ctx) {
  if (!result.issues.length) {
    payload.value = result.value;
    if (result.memo)
      payload.memo = true;
    return payload;
  }
  payload.value = def.catchValue({
    ...result,
    value: payload.value,
    error: {
      issues: result.issues.map((iss) => finalizeIssue(iss, ctx, config()))
    },
    input: payload.value
  });
  return payload;
}
function handlePipeResult(left, next, ctx) {
  if (left.issues.some((iss) => iss.code !== "unrecognized_keys")) {
    left.aborted = true;
    return left;
  }
  return next._zod.run({ value: left.value, issues: left.issues }, ctx);
}
function handleReadonlyResult(payload) {
  if (!payload.memo)
    payload.value = Object.freeze(payload.value);
  return payload;
}
function handleRefineResult(result, payload, input, inst) {
  if (!result) {
    const _iss = {
      code: "custom",
      input,
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
var $ZodType, toStandardResult, $ZodString, $ZodStringFormat, $ZodGUID, $ZodUUID, $ZodEmail, URL_BAD_FORMAT, URL_UNPARSEABLE, asciiTabOrNewline, $ZodURL, $ZodEmoji, $ZodNanoID, $ZodCUID, $ZodCUID2, $ZodULID, $ZodXID, $ZodKSUID, $ZodISODateTime, $ZodISODate, $ZodISOTime, $ZodISODuration, $ZodIPv4, ipv6Alphabet, $ZodIPv6, $ZodCIDRv4, $ZodCIDRv6, base64Charset, $ZodBase64, base64urlCharset, $ZodBase64URL, $ZodE164, $ZodJWT, $ZodNumber, $ZodNumberFormat, $ZodBoolean, $ZodUnknown, $ZodNever, arraySize, $ZodArray, NO_SYMBOL_KEYS, $ZodObject, $ZodObjectJIT, $ZodUnion, $ZodIntersection, $ZodRecord, $ZodEnum, $ZodLiteral, $ZodTransform, $ZodOptional, $ZodExactOptional, $ZodNullable, $ZodDefault, $ZodPrefault, $ZodNonOptional, $ZodCatch, $ZodPipe, $ZodReadonly, $ZodCustom;
var init_schemas = __esm({
  "node_modules/zod/v4/core/schemas.js"() {
    init_checks();
    init_core();
    init_doc();
    init_regexes();
    init_util();
    init_versions();
    init_util();
    $ZodType = /* @__PURE__ */ $constructor("$ZodType", (inst, def) => {
      var _a3;
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
        (_a3 = inst._zod).deferred ?? (_a3.deferred = []);
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
    toStandardResult = (r, ctx) => r.issues.length ? { issues: r.issues.map((iss) => finalizeIssue(iss, ctx, config())) } : { value: r.value };
    $ZodString = /* @__PURE__ */ $constructor("$ZodString", (inst, def) => {
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
    $ZodStringFormat = /* @__PURE__ */ $constructor("$ZodStringFormat", (inst, def) => {
      $ZodCheckStringFormat.init(inst, def);
      $ZodString.init(inst, def);
    });
    $ZodGUID = /* @__PURE__ */ $constructor("$ZodGUID", (inst, def) => {
      def.pattern ?? (def.pattern = guid);
      $ZodStringFormat.init(inst, def);
    });
    $ZodUUID = /* @__PURE__ */ $constructor("$ZodUUID", (inst, def) => {
      if (def.version) {
        const versionMap = {
          v1: 1,
          v2: 2,
          v3: 3,
          v4: 4,
          v5: 5,
          v6: 6,
          v7: 7,
          v8: 8
        };
        const v = versionMap[def.version];
        if (v === void 0)
          throw new Error(`Invalid UUID version: "${def.version}"`);
        def.pattern ?? (def.pattern = uuid(v));
      } else
        def.pattern ?? (def.pattern = uuid());
      $ZodStringFormat.init(inst, def);
    });
    $ZodEmail = /* @__PURE__ */ $constructor("$ZodEmail", (inst, def) => {
      def.pattern ?? (def.pattern = email);
      $ZodStringFormat.init(inst, def);
    });
    URL_BAD_FORMAT = 1;
    URL_UNPARSEABLE = 2;
    asciiTabOrNewline = /[\t\n\r]/g;
    $ZodURL = /* @__PURE__ */ $constructor("$ZodURL", (inst, def) => {
      $ZodStringFormat.init(inst, def);
      inst._zod.check = (payload) => {
        try {
          const trimmed = payload.value.trim();
          const url = validateURL(trimmed, def);
          if (url === URL_BAD_FORMAT) {
            payload.issues.push({
              code: "invalid_format",
              format: "url",
              note: "Invalid URL format",
              input: payload.value,
              inst,
              continue: !def.abort
            });
            return;
          }
          if (url === URL_UNPARSEABLE) {
            payload.issues.push({
              code: "invalid_format",
              format: "url",
              input: payload.value,
              inst,
              continue: !def.abort
            });
            return;
          }
          if (url === true) {
            payload.value = stripTabAndNewline(trimmed);
            return;
          }
          if (def.hostname && !urlHostnameOk(url, def.hostname)) {
            payload.issues.push({
              code: "invalid_format",
              format: "url",
              note: "Invalid hostname",
              pattern: def.hostname.source,
              input: payload.value,
              inst,
              continue: !def.abort
            });
          }
          if (def.protocol && !urlProtocolOk(url, def.protocol)) {
            payload.issues.push({
              code: "invalid_format",
              format: "url",
              note: "Invalid protocol",
              pattern: def.protocol.source,
              input: payload.value,
              inst,
              continue: !def.abort
            });
          }
          payload.value = def.normalize ? url.href : stripTabAndNewline(trimmed);
          return;
        } catch (_) {
          payload.issues.push({
            code: "invalid_format",
            format: "url",
            input: payload.value,
            inst,
            continue: !def.abort
          });
        }
      };
    });
    $ZodEmoji = /* @__PURE__ */ $constructor("$ZodEmoji", (inst, def) => {
      def.pattern ?? (def.pattern = emoji());
      $ZodStringFormat.init(inst, def);
    });
    $ZodNanoID = /* @__PURE__ */ $constructor("$ZodNanoID", (inst, def) => {
      if (def.length !== void 0 && (!Number.isInteger(def.length) || def.length < 1))
        throw new Error(`Invalid nanoid length: ${def.length}`);
      def.pattern ?? (def.pattern = def.length === void 0 ? nanoid : nanoidOfLength(def.length));
      $ZodStringFormat.init(inst, def);
    });
    $ZodCUID = /* @__PURE__ */ $constructor("$ZodCUID", (inst, def) => {
      def.pattern ?? (def.pattern = cuid);
      $ZodStringFormat.init(inst, def);
    });
    $ZodCUID2 = /* @__PURE__ */ $constructor("$ZodCUID2", (inst, def) => {
      def.pattern ?? (def.pattern = cuid2);
      $ZodStringFormat.init(inst, def);
    });
    $ZodULID = /* @__PURE__ */ $constructor("$ZodULID", (inst, def) => {
      def.pattern ?? (def.pattern = ulid);
      $ZodStringFormat.init(inst, def);
    });
    $ZodXID = /* @__PURE__ */ $constructor("$ZodXID", (inst, def) => {
      def.pattern ?? (def.pattern = xid);
      $ZodStringFormat.init(inst, def);
    });
    $ZodKSUID = /* @__PURE__ */ $constructor("$ZodKSUID", (inst, def) => {
      def.pattern ?? (def.pattern = ksuid);
      $ZodStringFormat.init(inst, def);
    });
    $ZodISODateTime = /* @__PURE__ */ $constructor("$ZodISODateTime", (inst, def) => {
      def.pattern ?? (def.pattern = datetime(def));
      $ZodStringFormat.init(inst, def);
    });
    $ZodISODate = /* @__PURE__ */ $constructor("$ZodISODate", (inst, def) => {
      def.pattern ?? (def.pattern = date);
      $ZodStringFormat.init(inst, def);
    });
    $ZodISOTime = /* @__PURE__ */ $constructor("$ZodISOTime", (inst, def) => {
      def.pattern ?? (def.pattern = time(def));
      $ZodStringFormat.init(inst, def);
    });
    $ZodISODuration = /* @__PURE__ */ $constructor("$ZodISODuration", (inst, def) => {
      def.pattern ?? (def.pattern = duration);
      $ZodStringFormat.init(inst, def);
    });
    $ZodIPv4 = /* @__PURE__ */ $constructor("$ZodIPv4", (inst, def) => {
      def.pattern ?? (def.pattern = ipv4);
      $ZodStringFormat.init(inst, def);
    });
    ipv6Alphabet = /^[0-9a-fA-F:.]+$/;
    $ZodIPv6 = /* @__PURE__ */ $constructor("$ZodIPv6", (inst, def) => {
      def.pattern ?? (def.pattern = ipv6);
      $ZodStringFormat.init(inst, def);
      inst._zod.check = (payload) => {
        if (!isValidIPv6(payload.value)) {
          payload.issues.push({
            code: "invalid_format",
            format: "ipv6",
            input: payload.value,
            inst,
            continue: !def.abort
          });
        }
      };
    });
    $ZodCIDRv4 = /* @__PURE__ */ $constructor("$ZodCIDRv4", (inst, def) => {
      def.pattern ?? (def.pattern = cidrv4);
      $ZodStringFormat.init(inst, def);
    });
    $ZodCIDRv6 = /* @__PURE__ */ $constructor("$ZodCIDRv6", (inst, def) => {
      def.pattern ?? (def.pattern = cidrv6);
      $ZodStringFormat.init(inst, def);
      inst._zod.check = (payload) => {
        if (!isValidCIDRv6(payload.value)) {
          payload.issues.push({
            code: "invalid_format",
            format: "cidrv6",
            input: payload.value,
            inst,
            continue: !def.abort
          });
        }
      };
    });
    base64Charset = /^[0-9a-zA-Z+/]*={0,2}$/;
    $ZodBase64 = /* @__PURE__ */ $constructor("$ZodBase64", (inst, def) => {
      def.pattern ?? (def.pattern = base64Charset);
      $ZodStringFormat.init(inst, def);
      inst._zod.check = (payload) => {
        if (isValidBase64(payload.value))
          return;
        payload.issues.push({
          code: "invalid_format",
          format: "base64",
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    base64urlCharset = /^[A-Za-z0-9_-]*$/;
    $ZodBase64URL = /* @__PURE__ */ $constructor("$ZodBase64URL", (inst, def) => {
      def.pattern ?? (def.pattern = base64urlCharset);
      $ZodStringFormat.init(inst, def);
      inst._zod.check = (payload) => {
        if (isValidBase64URL(payload.value))
          return;
        payload.issues.push({
          code: "invalid_format",
          format: "base64url",
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodE164 = /* @__PURE__ */ $constructor("$ZodE164", (inst, def) => {
      def.pattern ?? (def.pattern = e164);
      $ZodStringFormat.init(inst, def);
    });
    $ZodJWT = /* @__PURE__ */ $constructor("$ZodJWT", (inst, def) => {
      $ZodStringFormat.init(inst, def);
      inst._zod.check = (payload) => {
        if (isValidJWT(payload.value, def.alg))
          return;
        payload.issues.push({
          code: "invalid_format",
          format: "jwt",
          input: payload.value,
          inst,
          continue: !def.abort
        });
      };
    });
    $ZodNumber = /* @__PURE__ */ $constructor("$ZodNumber", (inst, def) => {
      $ZodType.init(inst, def);
      inst._zod.pattern = number;
      inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
          try {
            payload.value = Number(payload.value);
          } catch (_) {
          }
        const input = payload.value;
        if (typeof input === "number" && !Number.isNaN(input) && Number.isFinite(input)) {
          return payload;
        }
        const received = typeof input === "number" ? Number.isNaN(input) ? "NaN" : !Number.isFinite(input) ? String(input) : void 0 : void 0;
        payload.issues.push({
          expected: "number",
          code: "invalid_type",
          input,
          inst,
          ...received ? { received } : {}
        });
        return payload;
      };
    });
    $ZodNumberFormat = /* @__PURE__ */ $constructor("$ZodNumberFormat", (inst, def) => {
      $ZodCheckNumberFormat.init(inst, def);
      $ZodNumber.init(inst, def);
    });
    $ZodBoolean = /* @__PURE__ */ $constructor("$ZodBoolean", (inst, def) => {
      $ZodType.init(inst, def);
      inst._zod.pattern = boolean;
      inst._zod.parse = (payload, _ctx) => {
        if (def.coerce)
          try {
            payload.value = Boolean(payload.value);
          } catch (_) {
          }
        const input = payload.value;
        if (typeof input === "boolean")
          return payload;
        payload.issues.push({
          expected: "boolean",
          code: "invalid_type",
          input,
          inst
        });
        return payload;
      };
    });
    $ZodUnknown = /* @__PURE__ */ $constructor("$ZodUnknown", (inst, def) => {
      $ZodType.init(inst, def);
      inst._zod.parse = (payload) => payload;
    });
    $ZodNever = /* @__PURE__ */ $constructor("$ZodNever", (inst, def) => {
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
    arraySize = (input) => Array.isArray(input) ? input.length : -1;
    $ZodArray = /* @__PURE__ */ $constructor("$ZodArray", (inst, def) => {
      $ZodType.init(inst, def);
      const memo2 = globalConfig.memoizer;
      memo2?.attach(inst);
      inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!Array.isArray(input)) {
          payload.issues.push({
            expected: "array",
            code: "invalid_type",
            input,
            inst
          });
          return payload;
        }
        payload.value = memo2 ? memo2.alloc(inst, payload, Array(input.length), ctx) : Array(input.length);
        const proms = [];
        const abortEarly = ctx?.abortEarly;
        for (let i = 0; i < input.length; i++) {
          const item = input[i];
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
    NO_SYMBOL_KEYS = [];
    $ZodObject = /* @__PURE__ */ $constructor("$ZodObject", (inst, def) => {
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
      const memo2 = globalConfig.memoizer;
      memo2?.attach(inst);
      inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject2(input)) {
          payload.issues.push({
            expected: "object",
            code: "invalid_type",
            input,
            inst
          });
          return payload;
        }
        payload.value = memo2 ? memo2.alloc(inst, payload, {}, ctx) : {};
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
          const r = el._zod.run({ value: input[key], issues: [] }, ctx);
          if (r instanceof Promise) {
            proms.push(r.then((r2) => handlePropertyResult(r2, payload, key, input, optin, optout)));
          } else {
            handlePropertyResult(r, payload, key, input, optin, optout);
          }
        }
        if (!catchall) {
          return proms.length ? Promise.all(proms).then(() => payload) : payload;
        }
        return handleCatchall(proms, input, payload, ctx, _normalized.value, inst, abortEarly === true);
      };
    });
    $ZodObjectJIT = /* @__PURE__ */ $constructor("$ZodObjectJIT", (inst, def) => {
      $ZodObject.init(inst, def);
      const superParse = inst._zod.parse;
      const _normalized = cached(() => normalizeDef(def));
      const memo2 = globalConfig.memoizer;
      const generateFastpass = (shape) => {
        const normalized = _normalized.value;
        const syms = normalized.symbolKeys;
        const doc = new Doc(["payload", "ctx"], { shape, inst, memo: memo2, syms });
        const parseStr = (k) => `shape[${k}]._zod.run({ value: input[${k}], issues: [] }, ctx)`;
        const prefixStr = (id, k) => `
          let ${id}_ab = false;
          for (let i = 0; i < ${id}.issues.length; i++) {
            const iss = ${id}.issues[i];
            iss.path = iss.path ? [${k}, ...iss.path] : [${k}];
            payload.issues.push(iss);
            if (iss.continue !== true) ${id}_ab = true;
          }
          if (${id}_ab && ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }`;
        doc.write(`const input = payload.value;`);
        const ids = /* @__PURE__ */ Object.create(null);
        let counter = 0;
        for (const key of normalized.allKeys) {
          ids[key] = `key_${counter++}`;
        }
        doc.write(memo2 ? `const newResult = memo.alloc(inst, payload, {}, ctx);` : `const newResult = {};`);
        for (const key of normalized.allKeys) {
          if (key === "__proto__")
            continue;
          const id = ids[key];
          const k = typeof key === "symbol" ? `syms[${syms.indexOf(key)}]` : esc(key);
          const isPresent = `${k} in input`;
          const schema = shape[key];
          const optin = schema?._zod?.optin;
          const isOptionalIn = optin !== void 0;
          const isOptionalOut = schema?._zod?.optout === "optional";
          doc.write(`const ${id} = ${parseStr(k)};`);
          if (isOptionalIn && isOptionalOut) {
            const assign = optin === "optional" ? `${id}_present` : `${id}.value !== undefined || ${id}_present`;
            doc.write(`
        const ${id}_present = ${isPresent};
        if (!${id}.issues.length || ${id}_present) {
          if (${id}.issues.length) {${prefixStr(id, k)}
          }

          if (${assign}) {
            newResult[${k}] = ${id}.value;
          }
        }

      `);
          } else if (!isOptionalIn) {
            doc.write(`
        const ${id}_present = ${isPresent};
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
        if (!${id}_present && !${id}.issues.length) {
          payload.issues.push({
            code: "invalid_type",
            expected: "nonoptional",
            input: undefined,
            path: [${k}]
          });
          if (ctx && ctx.abortEarly) {
            payload.value = newResult;
            return payload;
          }
        }

        if (${id}_present) {
          newResult[${k}] = ${id}.value;
        }

      `);
          } else {
            doc.write(`
        if (${id}.issues.length) {${prefixStr(id, k)}
        }
      `);
            if (optin === "defaulted") {
              doc.write(`newResult[${k}] = ${id}.value;`);
            } else {
              doc.write(`
        if (${id}.value !== undefined || ${isPresent}) {
          newResult[${k}] = ${id}.value;
        }
      `);
            }
          }
        }
        doc.write(`payload.value = newResult;`);
        doc.write(`return payload;`);
        return doc.compile();
      };
      let fastpass;
      const isObject2 = isObject;
      const jit = !globalConfig.jitless;
      const allowsEval2 = allowsEval;
      const fastEnabled = jit && allowsEval2.value;
      const catchall = def.catchall;
      let value;
      inst._zod.parse = (payload, ctx) => {
        value ?? (value = _normalized.value);
        const input = payload.value;
        if (!isObject2(input)) {
          payload.issues.push({
            expected: "object",
            code: "invalid_type",
            input,
            inst
          });
          return payload;
        }
        if (jit && fastEnabled && ctx?.async === false && ctx.jitless !== true) {
          if (!fastpass)
            fastpass = generateFastpass(def.shape);
          payload = fastpass(payload, ctx);
          if (!catchall)
            return payload;
          return handleCatchall([], input, payload, ctx, value, inst, ctx?.abortEarly === true);
        }
        return superParse(payload, ctx);
      };
    });
    $ZodUnion = /* @__PURE__ */ $constructor("$ZodUnion", (inst, def) => {
      $ZodType.init(inst, def);
      defineLazyInternal(inst, "optin", (zod) => zod.def.options.some((o) => o._zod.optin === "defaulted") ? "defaulted" : zod.def.options.some((o) => o._zod.optin !== void 0) ? "optional" : void 0);
      defineLazyInternal(inst, "optout", (zod) => zod.def.options.some((o) => o._zod.optout === "optional") ? "optional" : void 0);
      defineLazyInternal(inst, "values", (zod) => {
        if (zod.def.options.every((o) => o._zod.values)) {
          return new Set(zod.def.options.flatMap((option) => Array.from(option._zod.values)));
        }
        return void 0;
      });
      defineLazyInternal(inst, "pattern", (zod) => {
        if (zod.def.options.every((o) => o._zod.pattern)) {
          const patterns = zod.def.options.map((o) => o._zod.pattern);
          return new RegExp(`^(${patterns.map((p) => cleanRegex(p.source)).join("|")})$`);
        }
        return void 0;
      });
      const first = def.options.length === 1 ? def.options[0]._zod.run : null;
      inst._zod.parse = (payload, ctx) => {
        if (first) {
          return first(payload, ctx);
        }
        let async = false;
        const results = [];
        for (const option of def.options) {
          const result = option._zod.run({
            value: payload.value,
            issues: []
          }, ctx);
          if (result instanceof Promise) {
            results.push(result);
            async = true;
          } else {
            if (result.issues.length === 0)
              return result;
            results.push(result);
          }
        }
        if (!async)
          return handleUnionResults(results, payload, inst, ctx);
        return Promise.all(results).then((results2) => {
          return handleUnionResults(results2, payload, inst, ctx);
        });
      };
    });
    $ZodIntersection = /* @__PURE__ */ $constructor("$ZodIntersection", (inst, def) => {
      $ZodType.init(inst, def);
      inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        const left = def.left._zod.run({ value: input, issues: [] }, ctx);
        const right = def.right._zod.run({ value: input, issues: [] }, ctx);
        const async = left instanceof Promise || right instanceof Promise;
        if (async) {
          return Promise.all([left, right]).then(([left2, right2]) => {
            return handleIntersectionResults(payload, left2, right2);
          });
        }
        return handleIntersectionResults(payload, left, right);
      };
    });
    $ZodRecord = /* @__PURE__ */ $constructor("$ZodRecord", (inst, def) => {
      $ZodType.init(inst, def);
      const memo2 = globalConfig.memoizer;
      memo2?.attach(inst);
      inst._zod.parse = (payload, ctx) => {
        const input = payload.value;
        if (!isPlainObject(input)) {
          payload.issues.push({
            expected: "record",
            code: "invalid_type",
            input,
            inst
          });
          return payload;
        }
        const proms = [];
        const values = def.keyType._zod.values;
        if (values && !def.partial) {
          payload.value = memo2 ? memo2.alloc(inst, payload, {}, ctx) : {};
          const recordKeys = /* @__PURE__ */ new Set();
          for (const key of values) {
            if (typeof key === "string" || typeof key === "number" || typeof key === "symbol") {
              recordKeys.add(typeof key === "number" ? key.toString() : key);
              if (key === "__proto__")
                continue;
              const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
              if (keyResult instanceof Promise) {
                throw new Error("Async schemas not supported in object keys currently");
              }
              if (keyResult.issues.length) {
                payload.issues.push({
                  code: "invalid_key",
                  origin: "record",
                  issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                  input: key,
                  path: [key],
                  inst
                });
                continue;
              }
              const outKey = keyResult.value;
              if (outKey === "__proto__")
                continue;
              const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
              if (result instanceof Promise) {
                proms.push(result.then((result2) => {
                  if (result2.issues.length) {
                    payload.issues.push(...prefixIssues(key, result2.issues));
                  }
                  payload.value[outKey] = result2.value;
                }));
              } else {
                if (result.issues.length) {
                  payload.issues.push(...prefixIssues(key, result.issues));
                }
                payload.value[outKey] = result.value;
              }
            }
          }
          let unrecognized;
          for (const key in input) {
            if (!recordKeys.has(key)) {
              if (def.mode === "loose") {
                if (key === "__proto__")
                  continue;
                payload.value[key] = input[key];
              } else {
                unrecognized = unrecognized ?? [];
                unrecognized.push(key);
              }
            }
          }
          if (unrecognized && unrecognized.length > 0) {
            payload.issues.push({
              code: "unrecognized_keys",
              input,
              inst,
              keys: unrecognized,
              continue: true
            });
          }
        } else {
          payload.value = memo2 ? memo2.alloc(inst, payload, {}, ctx) : {};
          let unrecognized;
          for (const key of Reflect.ownKeys(input)) {
            if (key === "__proto__")
              continue;
            if (!Object.prototype.propertyIsEnumerable.call(input, key))
              continue;
            let keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx);
            if (keyResult instanceof Promise) {
              throw new Error("Async schemas not supported in object keys currently");
            }
            const checkNumericKey = typeof key === "string" && number.test(key) && keyResult.issues.length;
            if (checkNumericKey) {
              const retryResult = def.keyType._zod.run({ value: Number(key), issues: [] }, ctx);
              if (retryResult instanceof Promise) {
                throw new Error("Async schemas not supported in object keys currently");
              }
              if (retryResult.issues.length === 0) {
                keyResult = retryResult;
              }
            }
            if (keyResult.issues.length) {
              if (def.mode === "loose") {
                payload.value[key] = input[key];
              } else if (values) {
                unrecognized = unrecognized ?? [];
                unrecognized.push(key);
              } else {
                payload.issues.push({
                  code: "invalid_key",
                  origin: "record",
                  issues: keyResult.issues.map((iss) => finalizeIssue(iss, ctx, config())),
                  input: key,
                  path: [key],
                  inst
                });
              }
              continue;
            }
            const outKey = keyResult.value;
            if (outKey === "__proto__")
              continue;
            const result = def.valueType._zod.run({ value: input[key], issues: [] }, ctx);
            if (result instanceof Promise) {
              proms.push(result.then((result2) => {
                if (result2.issues.length) {
                  payload.issues.push(...prefixIssues(key, result2.issues));
                }
                payload.value[outKey] = result2.value;
              }));
            } else {
              if (result.issues.length) {
                payload.issues.push(...prefixIssues(key, result.issues));
              }
              payload.value[outKey] = result.value;
            }
          }
          if (unrecognized && unrecognized.length > 0) {
            payload.issues.push({
              code: "unrecognized_keys",
              input,
              inst,
              keys: unrecognized,
              continue: true
            });
          }
        }
        if (proms.length) {
          return Promise.all(proms).then(() => payload);
        }
        return payload;
      };
    });
    $ZodEnum = /* @__PURE__ */ $constructor("$ZodEnum", (inst, def) => {
      $ZodType.init(inst, def);
      const values = getEnumValues(def.entries);
      const valuesSet = new Set(values);
      inst._zod.values = valuesSet;
      defineLazyInternal(inst, "pattern", (zod) => {
        const patternValues = getEnumValues(zod.def.entries).filter((k) => propertyKeyTypes.has(typeof k));
        return new RegExp(patternValues.length ? `^(${patternValues.map((o) => escapeRegex(o.toString())).join("|")})$` : "^[^\\s\\S]$");
      });
      inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (valuesSet.has(input)) {
          return payload;
        }
        payload.issues.push({
          code: "invalid_value",
          values,
          input,
          inst
        });
        return payload;
      };
    });
    $ZodLiteral = /* @__PURE__ */ $constructor("$ZodLiteral", (inst, def) => {
      $ZodType.init(inst, def);
      const values = new Set(def.values);
      inst._zod.values = values;
      defineLazyInternal(inst, "pattern", (zod) => {
        const vals = zod.def.values;
        return new RegExp(vals.length ? `^(${vals.map((o) => typeof o === "string" ? escapeRegex(o) : o ? escapeRegex(o.toString()) : String(o)).join("|")})$` : "^[^\\s\\S]$");
      });
      inst._zod.parse = (payload, _ctx) => {
        const input = payload.value;
        if (values.has(input)) {
          return payload;
        }
        payload.issues.push({
          code: "invalid_value",
          values: def.values,
          input,
          inst
        });
        return payload;
      };
    });
    $ZodTransform = /* @__PURE__ */ $constructor("$ZodTransform", (inst, def) => {
      $ZodType.init(inst, def);
      inst._zod.optin = "optional";
      globalConfig.memoizer?.guard(inst);
      inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
          throw new $ZodEncodeError(inst.constructor.name);
        }
        const _out = def.transform(payload.value, payload);
        if (ctx.async) {
          const output = _out instanceof Promise ? _out : Promise.resolve(_out);
          return output.then((output2) => {
            payload.value = output2;
            return payload;
          });
        }
        if (_out instanceof Promise) {
          throw new $ZodAsyncError();
        }
        payload.value = _out;
        return payload;
      };
    });
    $ZodOptional = /* @__PURE__ */ $constructor("$ZodOptional", (inst, def) => {
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
    $ZodExactOptional = /* @__PURE__ */ $constructor("$ZodExactOptional", (inst, def) => {
      $ZodOptional.init(inst, def);
      defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
      defineLazyInternal(inst, "pattern", (zod) => zod.def.innerType._zod.pattern);
      inst._zod.parse = (payload, ctx) => {
        return def.innerType._zod.run(payload, ctx);
      };
    });
    $ZodNullable = /* @__PURE__ */ $constructor("$ZodNullable", (inst, def) => {
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
    $ZodDefault = /* @__PURE__ */ $constructor("$ZodDefault", (inst, def) => {
      $ZodType.init(inst, def);
      inst._zod.optin = "defaulted";
      defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
      inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
          return def.innerType._zod.run(payload, ctx);
        }
        if (payload.value === void 0) {
          payload.value = def.defaultValue;
          return payload;
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
          return result.then((result2) => handleDefaultResult(result2, def));
        }
        return handleDefaultResult(result, def);
      };
    });
    $ZodPrefault = /* @__PURE__ */ $constructor("$ZodPrefault", (inst, def) => {
      $ZodType.init(inst, def);
      inst._zod.optin = "defaulted";
      defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
      inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
          return def.innerType._zod.run(payload, ctx);
        }
        if (payload.value === void 0) {
          payload.value = def.defaultValue;
        }
        return def.innerType._zod.run(payload, ctx);
      };
    });
    $ZodNonOptional = /* @__PURE__ */ $constructor("$ZodNonOptional", (inst, def) => {
      $ZodType.init(inst, def);
      defineLazyInternal(inst, "values", (zod) => {
        const v = zod.def.innerType._zod.values;
        return v ? new Set([...v].filter((x) => x !== void 0)) : void 0;
      });
      inst._zod.parse = (payload, ctx) => {
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
          return result.then((result2) => handleNonOptionalResult(result2, inst));
        }
        return handleNonOptionalResult(result, inst);
      };
    });
    $ZodCatch = /* @__PURE__ */ $constructor("$ZodCatch", (inst, def) => {
      $ZodType.init(inst, def);
      defineLazyInternal(inst, "optin", (zod) => zod.def.innerType._zod.optin === "defaulted" ? "defaulted" : "optional");
      defineLazyInternal(inst, "optout", (zod) => zod.def.innerType._zod.optout);
      defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
      inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
          return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run({ value: payload.value, issues: [] }, ctx);
        if (result instanceof Promise) {
          return result.then((result2) => handleCatchResult(payload, result2, def, ctx));
        }
        return handleCatchResult(payload, result, def, ctx);
      };
    });
    $ZodPipe = /* @__PURE__ */ $constructor("$ZodPipe", (inst, def) => {
      $ZodType.init(inst, def);
      defineLazyInternal(inst, "values", (zod) => zod.def.in._zod.values);
      defineLazyInternal(inst, "optin", (zod) => zod.def.in._zod.optin);
      defineLazyInternal(inst, "optout", (zod) => zod.def.out._zod.optout);
      defineLazyInternal(inst, "propValues", (zod) => zod.def.in._zod.propValues);
      inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
          const right = def.out._zod.run(payload, ctx);
          if (right instanceof Promise) {
            return right.then((right2) => handlePipeResult(right2, def.in, ctx));
          }
          return handlePipeResult(right, def.in, ctx);
        }
        const left = def.in._zod.run(payload, ctx);
        if (left instanceof Promise) {
          return left.then((left2) => handlePipeResult(left2, def.out, ctx));
        }
        return handlePipeResult(left, def.out, ctx);
      };
    });
    $ZodReadonly = /* @__PURE__ */ $constructor("$ZodReadonly", (inst, def) => {
      $ZodType.init(inst, def);
      defineLazyInternal(inst, "propValues", (zod) => zod.def.innerType._zod.propValues);
      defineLazyInternal(inst, "values", (zod) => zod.def.innerType._zod.values);
      defineLazyInternal(inst, "optin", (zod) => zod.def.innerType?._zod?.optin);
      defineLazyInternal(inst, "optout", (zod) => zod.def.innerType?._zod?.optout);
      inst._zod.parse = (payload, ctx) => {
        if (ctx.direction === "backward") {
          return def.innerType._zod.run(payload, ctx);
        }
        const result = def.innerType._zod.run(payload, ctx);
        if (result instanceof Promise) {
          return result.then(handleReadonlyResult);
        }
        return handleReadonlyResult(result);
      };
    });
    $ZodCustom = /* @__PURE__ */ $constructor("$ZodCustom", (inst, def) => {
      $ZodCheck.init(inst, def);
      $ZodType.init(inst, def);
      inst._zod.parse = (payload, _) => {
        return payload;
      };
      inst._zod.check = (payload) => {
        const input = payload.value;
        const r = def.fn(input);
        if (r instanceof Promise) {
          return r.then((r2) => handleRefineResult(r2, payload, input, inst));
        }
        handleRefineResult(r, payload, input, inst);
        return;
      };
    });
  }
});

// node_modules/zod/v4/core/memoizer.js
function isRef(value) {
  return value !== null && typeof value === "object";
}
function cloneIssues(issues) {
  return issues.map((iss) => iss.path ? { ...iss, path: iss.path.slice() } : { ...iss });
}
function isRecursive(inst, stack, resolve13) {
  const cached2 = recursive.get(inst);
  if (cached2 !== void 0)
    return cached2 ? PROVEN : NONE;
  if (stack.has(inst))
    return PROVEN;
  stack.add(inst);
  let result = NONE;
  const check = (child) => {
    if (result !== PROVEN && child?._zod) {
      const answer2 = isRecursive(child, stack, resolve13);
      if (answer2 > result)
        result = answer2;
    }
  };
  const shape = (sh, spread) => {
    let answer2 = NONE;
    for (const key of Reflect.ownKeys(sh)) {
      const desc = Object.getOwnPropertyDescriptor(sh, key);
      if (spread && !desc.enumerable)
        continue;
      const child = desc.get ? ASSUMED : desc.value?._zod ? isRecursive(desc.value, stack, resolve13) : NONE;
      if (child > answer2)
        answer2 = child;
    }
    return answer2;
  };
  const merge2 = (answer2) => {
    if (answer2 > result)
      result = answer2;
  };
  const def = inst._zod.def;
  const kind = def.type;
  switch (kind) {
    case "object": {
      const raw = rawShape(def);
      merge2(raw ? shape(raw, true) : ASSUMED);
      check(def.catchall);
      break;
    }
    case "array":
      check(def.element);
      break;
    case "tuple":
      for (const el of def.items)
        check(el);
      check(def.rest);
      break;
    case "record":
    case "map":
      check(def.keyType);
      check(def.valueType);
      break;
    case "set":
      check(def.valueType);
      break;
    case "union":
      for (const el of def.options)
        check(el);
      break;
    case "intersection":
      check(def.left);
      check(def.right);
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "promise":
    case "success":
      check(def.innerType);
      break;
    case "pipe":
      check(def.in);
      check(def.out);
      break;
    case "function":
      check(def.input);
      check(def.output);
      break;
    // `$ZodLazy` caches its inner on the def, so a resolved edge is followed exactly
    case "lazy": {
      const inner = def._cachedInner ?? (resolve13 ? inst._zod.innerType : void 0);
      merge2(inner ? isRecursive(inner, stack, false) : ASSUMED);
      break;
    }
    // a leaf by choice: `parts` are regex fragments, not data positions
    case "template_literal":
    // leaves
    case "string":
    case "number":
    case "int":
    case "boolean":
    case "bigint":
    case "symbol":
    case "undefined":
    case "null":
    case "void":
    case "never":
    case "any":
    case "unknown":
    case "date":
    case "nan":
    case "enum":
    case "literal":
    case "file":
    case "transform":
    case "custom":
      break;
    default: {
      kind;
      for (const key in def) {
        const desc = Object.getOwnPropertyDescriptor(def, key);
        if (!desc || desc.get)
          continue;
        const value = desc.value;
        if (!value || typeof value !== "object")
          continue;
        if (value._zod)
          check(value);
        else if (Array.isArray(value))
          for (const el of value)
            check(el);
      }
    }
  }
  stack.delete(inst);
  return settle(inst, result);
}
function settle(inst, answer2) {
  if (answer2 !== ASSUMED)
    recursive.set(inst, answer2 === PROVEN);
  return answer2;
}
function bucketFor(state, inst) {
  let bucket = state.buckets.get(inst);
  if (!bucket) {
    bucket = /* @__PURE__ */ new WeakMap();
    state.buckets.set(inst, bucket);
  }
  return bucket;
}
function memoizer() {
  return memo;
}
function isBackEdge(ctx, value) {
  const backEdges = ctx[STATE]?.backEdges;
  return backEdges !== void 0 && isRef(value) && backEdges.has(value);
}
var $ZodCyclicError, STATE, NO_ISSUES, recursive, NONE, ASSUMED, PROVEN, handoff, open, memo;
var init_memoizer = __esm({
  "node_modules/zod/v4/core/memoizer.js"() {
    init_util();
    $ZodCyclicError = class extends Error {
      constructor() {
        super(`Cannot parse a reference cycle that closes through a transform`);
        this.name = "ZodCyclicError";
      }
    };
    STATE = "~memo";
    NO_ISSUES = [];
    recursive = /* @__PURE__ */ new WeakMap();
    NONE = 0;
    ASSUMED = 1;
    PROVEN = 2;
    open = [];
    memo = {
      alloc(_inst, payload, empty) {
        const bucket = handoff;
        if (!bucket)
          return empty;
        handoff = void 0;
        const entry = { value: empty, issues: null };
        bucket.set(payload.value, entry);
        open.push(entry);
        return empty;
      },
      guard(inst) {
        var _a3;
        (_a3 = inst._zod).deferred ?? (_a3.deferred = []);
        inst._zod.deferred.push(() => {
          const base = inst._zod.parse;
          const wrapped = (payload, ctx) => {
            if (ctx.direction !== "backward" && isBackEdge(ctx, payload.value))
              throw new $ZodCyclicError();
            return base(payload, ctx);
          };
          inst._zod.parse = wrapped;
          if (inst._zod.run === base)
            inst._zod.run = wrapped;
        });
      },
      attach(inst) {
        var _a3;
        let isRecursiveInst;
        let rechecked = false;
        let lastCtx;
        let lastBucket;
        (_a3 = inst._zod).deferred ?? (_a3.deferred = []);
        inst._zod.deferred.push(() => {
          const base = inst._zod.parse;
          const wrapped = (payload, ctx) => {
            if (isRecursiveInst === void 0) {
              const walked = isRecursive(inst, /* @__PURE__ */ new Set(), false);
              if (walked === NONE) {
                inst._zod.parse = base;
                if (inst._zod.run === wrapped)
                  inst._zod.run = base;
                return base(payload, ctx);
              }
              if (walked === PROVEN || rechecked)
                isRecursiveInst = true;
              else
                rechecked = true;
            }
            const input = payload.value;
            if (!isRef(input))
              return base(payload, ctx);
            let state = ctx[STATE];
            if (!state) {
              state = { buckets: /* @__PURE__ */ new WeakMap(), backEdges: void 0 };
              ctx[STATE] = state;
            }
            let bucket;
            if (lastCtx === ctx) {
              bucket = lastBucket;
            } else {
              bucket = bucketFor(state, inst);
              lastCtx = ctx;
              lastBucket = bucket;
            }
            const hit = bucket.get(input);
            if (hit) {
              payload.value = hit.value;
              if (hit.issues) {
                if (hit.issues.length)
                  payload.issues.push(...cloneIssues(hit.issues));
              } else {
                payload.memo = true;
                state.backEdges ?? (state.backEdges = /* @__PURE__ */ new WeakSet());
                state.backEdges.add(hit.value);
              }
              return payload;
            }
            handoff = bucket;
            const depth = open.length;
            const result = base(payload, ctx);
            handoff = void 0;
            const entry = open.length > depth ? open.pop() : void 0;
            if (result instanceof Promise) {
              return result.then((r) => {
                if (entry)
                  entry.issues = r.issues.length ? cloneIssues(r.issues) : NO_ISSUES;
                return r;
              });
            }
            if (entry)
              entry.issues = result.issues.length ? cloneIssues(result.issues) : NO_ISSUES;
            return result;
          };
          inst._zod.parse = wrapped;
          if (inst._zod.run === base)
            inst._zod.run = wrapped;
        });
      }
    };
  }
});

// node_modules/zod/v4/locales/en.js
function en_default() {
  return {
    localeError: error()
  };
}
var error;
var init_en = __esm({
  "node_modules/zod/v4/locales/en.js"() {
    init_util();
    error = () => {
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
      function getTypeName(type, input) {
        if (type === "number" && typeof input === "number" && !Number.isFinite(input)) {
          return String(input);
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
  }
});

// node_modules/zod/v4/locales/index.js
var init_locales = __esm({
  "node_modules/zod/v4/locales/index.js"() {
  }
});

// node_modules/zod/v4/core/registries.js
function registry() {
  return new $ZodRegistry();
}
var _a2, $ZodRegistry, globalRegistry;
var init_registries = __esm({
  "node_modules/zod/v4/core/registries.js"() {
    $ZodRegistry = class {
      constructor() {
        this._map = /* @__PURE__ */ new WeakMap();
        this._idmap = /* @__PURE__ */ new Map();
      }
      add(schema, ..._meta) {
        const meta2 = _meta[0];
        this._map.set(schema, meta2);
        if (meta2 && typeof meta2 === "object" && "id" in meta2) {
          this._idmap.set(meta2.id, schema);
        }
        return this;
      }
      clear() {
        this._map = /* @__PURE__ */ new WeakMap();
        this._idmap = /* @__PURE__ */ new Map();
        return this;
      }
      remove(schema) {
        const meta2 = this._map.get(schema);
        if (meta2 && typeof meta2 === "object" && "id" in meta2) {
          this._idmap.delete(meta2.id);
        }
        this._map.delete(schema);
        return this;
      }
      get(schema) {
        const p = schema._zod.parent;
        if (p) {
          const pm = { ...this.get(p) ?? {} };
          delete pm.id;
          const f = { ...pm, ...this._map.get(schema) };
          return Object.keys(f).length ? f : void 0;
        }
        return this._map.get(schema);
      }
      has(schema) {
        return this._map.has(schema);
      }
    };
    (_a2 = globalThis).__zod_globalRegistry ?? (_a2.__zod_globalRegistry = registry());
    globalRegistry = globalThis.__zod_globalRegistry;
  }
});

// node_modules/zod/v4/core/compile.js
var init_compile = __esm({
  "node_modules/zod/v4/core/compile.js"() {
  }
});

// node_modules/zod/v4/core/api.js
function snapshotChecks(def) {
  if (def.checks)
    def.checks = [...def.checks];
  return def;
}
// @__NO_SIDE_EFFECTS__
function _string(Class2, params) {
  return new Class2(snapshotChecks({ type: "string", ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _email(Class2, params) {
  return new Class2({
    type: "string",
    format: "email",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _guid(Class2, params) {
  return new Class2({
    type: "string",
    format: "guid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuid(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuidv4(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    version: "v4",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuidv6(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    version: "v6",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uuidv7(Class2, params) {
  return new Class2({
    type: "string",
    format: "uuid",
    check: "string_format",
    abort: false,
    version: "v7",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _url(Class2, params) {
  return new Class2({
    type: "string",
    format: "url",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _emoji2(Class2, params) {
  return new Class2({
    type: "string",
    format: "emoji",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _nanoid(Class2, params) {
  return new Class2({
    type: "string",
    format: "nanoid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cuid(Class2, params) {
  return new Class2({
    type: "string",
    format: "cuid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cuid2(Class2, params) {
  return new Class2({
    type: "string",
    format: "cuid2",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ulid(Class2, params) {
  return new Class2({
    type: "string",
    format: "ulid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _xid(Class2, params) {
  return new Class2({
    type: "string",
    format: "xid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ksuid(Class2, params) {
  return new Class2({
    type: "string",
    format: "ksuid",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ipv4(Class2, params) {
  return new Class2({
    type: "string",
    format: "ipv4",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _ipv6(Class2, params) {
  return new Class2({
    type: "string",
    format: "ipv6",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cidrv4(Class2, params) {
  return new Class2({
    type: "string",
    format: "cidrv4",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _cidrv6(Class2, params) {
  return new Class2({
    type: "string",
    format: "cidrv6",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _base64(Class2, params) {
  return new Class2({
    type: "string",
    format: "base64",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _base64url(Class2, params) {
  return new Class2({
    type: "string",
    format: "base64url",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _e164(Class2, params) {
  return new Class2({
    type: "string",
    format: "e164",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _jwt(Class2, params) {
  return new Class2({
    type: "string",
    format: "jwt",
    check: "string_format",
    abort: false,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoDateTime(Class2, params) {
  return new Class2({
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
function _isoDate(Class2, params) {
  return new Class2({
    type: "string",
    format: "date",
    check: "string_format",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoTime(Class2, params) {
  return new Class2({
    type: "string",
    format: "time",
    check: "string_format",
    precision: null,
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _isoDuration(Class2, params) {
  return new Class2({
    type: "string",
    format: "duration",
    check: "string_format",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _number(Class2, params) {
  return new Class2(snapshotChecks({ type: "number", checks: [], ...normalizeParams(params) }));
}
// @__NO_SIDE_EFFECTS__
function _int(Class2, params) {
  return new Class2({
    type: "number",
    check: "number_format",
    abort: false,
    format: "safeint",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _boolean(Class2, params) {
  return new Class2({
    type: "boolean",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _unknown(Class2) {
  return new Class2({
    type: "unknown"
  });
}
// @__NO_SIDE_EFFECTS__
function _never(Class2, params) {
  return new Class2({
    type: "never",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _lt(value, params) {
  return new $ZodCheckLessThan({
    check: "less_than",
    ...normalizeParams(params),
    value,
    inclusive: false
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
function _multipleOf(value, params) {
  return new $ZodCheckMultipleOf({
    check: "multiple_of",
    ...normalizeParams(params),
    value
  });
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
function _length(length, params) {
  return new $ZodCheckLengthEquals({
    check: "length_equals",
    ...normalizeParams(params),
    length
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
function _lowercase(params) {
  return new $ZodCheckLowerCase({
    check: "string_format",
    format: "lowercase",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _uppercase(params) {
  return new $ZodCheckUpperCase({
    check: "string_format",
    format: "uppercase",
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _includes(includes, params) {
  return new $ZodCheckIncludes({
    check: "string_format",
    format: "includes",
    ...normalizeParams(params),
    includes
  });
}
// @__NO_SIDE_EFFECTS__
function _startsWith(prefix, params) {
  return new $ZodCheckStartsWith({
    check: "string_format",
    format: "starts_with",
    ...normalizeParams(params),
    prefix
  });
}
// @__NO_SIDE_EFFECTS__
function _endsWith(suffix, params) {
  return new $ZodCheckEndsWith({
    check: "string_format",
    format: "ends_with",
    ...normalizeParams(params),
    suffix
  });
}
// @__NO_SIDE_EFFECTS__
function _overwrite(tx) {
  return new $ZodCheckOverwrite({
    check: "overwrite",
    tx
  });
}
// @__NO_SIDE_EFFECTS__
function _normalize(form) {
  return /* @__PURE__ */ _overwrite((input) => input.normalize(form));
}
// @__NO_SIDE_EFFECTS__
function _trim() {
  return /* @__PURE__ */ _overwrite((input) => input.trim());
}
// @__NO_SIDE_EFFECTS__
function _toLowerCase() {
  return /* @__PURE__ */ _overwrite((input) => input.toLowerCase());
}
// @__NO_SIDE_EFFECTS__
function _toUpperCase() {
  return /* @__PURE__ */ _overwrite((input) => input.toUpperCase());
}
// @__NO_SIDE_EFFECTS__
function _slugify() {
  return /* @__PURE__ */ _overwrite((input) => slugify(input));
}
// @__NO_SIDE_EFFECTS__
function _array(Class2, element, params) {
  return new Class2({
    type: "array",
    element,
    // get element() {
    //   return element;
    // },
    ...normalizeParams(params)
  });
}
// @__NO_SIDE_EFFECTS__
function _refine(Class2, fn, _params) {
  const schema = new Class2({
    type: "custom",
    check: "custom",
    fn,
    ...normalizeParams(_params)
  });
  return schema;
}
// @__NO_SIDE_EFFECTS__
function _superRefine(fn, params) {
  const ch = /* @__PURE__ */ _check((payload) => {
    payload.addIssue = (issue2) => {
      if (typeof issue2 === "string") {
        payload.issues.push(issue(issue2, payload.value, ch._zod.def));
      } else {
        const _issue = issue2;
        if (_issue.fatal)
          _issue.continue = false;
        _issue.code ?? (_issue.code = "custom");
        if (!("input" in _issue))
          _issue.input = payload.value;
        _issue.inst ?? (_issue.inst = ch);
        _issue.continue ?? (_issue.continue = !ch._zod.def.abort);
        payload.issues.push(issue(_issue));
      }
    };
    return fn(payload.value, payload);
  }, params);
  return ch;
}
// @__NO_SIDE_EFFECTS__
function _check(fn, params) {
  const ch = new $ZodCheck({
    check: "custom",
    ...normalizeParams(params)
  });
  ch._zod.check = fn;
  return ch;
}
var init_api = __esm({
  "node_modules/zod/v4/core/api.js"() {
    init_checks();
    init_util();
  }
});

// node_modules/zod/v4/core/to-json-schema.js
function assignProps(target, ...sources) {
  for (const source of sources) {
    for (const key of Reflect.ownKeys(source)) {
      if (Object.prototype.propertyIsEnumerable.call(source, key)) {
        assignProp(target, key, source[key]);
      }
    }
  }
  return target;
}
function initializeContext(params) {
  let target = params?.target ?? "draft-2020-12";
  if (target === "draft-4")
    target = "draft-04";
  if (target === "draft-7")
    target = "draft-07";
  return {
    processors: params.processors ?? {},
    metadataRegistry: params?.metadata ?? globalRegistry,
    target,
    unrepresentable: params?.unrepresentable ?? "throw",
    override: params?.override ?? (() => {
    }),
    io: params?.io ?? "output",
    counter: 0,
    seen: /* @__PURE__ */ new Map(),
    sharedDefsExtractedFor: void 0,
    sharedEmitDoneFor: void 0,
    cycles: params?.cycles ?? "ref",
    reused: params?.reused ?? "inline",
    intersections: [],
    deferred: [],
    external: params?.external ?? void 0
  };
}
function handleUnrepresentable(schema, ctx, json, params, message) {
  const result = typeof ctx.unrepresentable === "function" ? ctx.unrepresentable({ zodSchema: schema, path: params.path, message }) : ctx.unrepresentable;
  if (result === "any")
    return false;
  if (result === void 0 || result === "throw")
    throw new Error(message);
  Object.assign(json, result);
  return true;
}
function processSchema(schema, ctx, _params = { path: [], schemaPath: [] }) {
  var _a3;
  const def = schema._zod.def;
  const seen = ctx.seen.get(schema);
  if (seen) {
    seen.count++;
    const isCycle = _params.schemaPath.includes(schema);
    if (isCycle) {
      seen.cycle = _params.path;
    }
    return seen.schema;
  }
  const result = { schema: {}, count: 1, cycle: void 0, path: _params.path };
  ctx.seen.set(schema, result);
  ctx.sharedDefsExtractedFor = void 0;
  ctx.sharedEmitDoneFor = void 0;
  const overrideSchema = schema._zod.toJSONSchema?.();
  if (overrideSchema) {
    result.schema = overrideSchema;
  } else {
    const params = {
      ..._params,
      schemaPath: [..._params.schemaPath, schema],
      path: _params.path
    };
    if (schema._zod.processJSONSchema) {
      schema._zod.processJSONSchema(ctx, result.schema, params);
    } else {
      const _json = result.schema;
      const processor = ctx.processors[def.type];
      if (!processor) {
        throw new Error(`[toJSONSchema]: Non-representable type encountered: ${def.type}`);
      }
      processor(schema, ctx, _json, params);
    }
    const parent = schema._zod.parent;
    if (parent) {
      if (!result.ref)
        result.ref = parent;
      processSchema(parent, ctx, params);
      ctx.seen.get(parent).isParent = true;
    }
  }
  const meta2 = ctx.metadataRegistry.get(schema);
  if (meta2)
    assignProps(result.schema, meta2);
  if (ctx.io === "input" && isTransforming(schema)) {
    delete result.schema.examples;
    delete result.schema.default;
  }
  if (ctx.io === "input" && "_prefault" in result.schema)
    (_a3 = result.schema).default ?? (_a3.default = result.schema._prefault);
  delete result.schema._prefault;
  const _result = ctx.seen.get(schema);
  return _result.schema;
}
function encodeJSONPointerSegment(segment) {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
function extractDefs(ctx, schema) {
  const root = ctx.seen.get(schema);
  if (!root)
    throw new Error("Unprocessed schema. This is a bug in Zod.");
  if (ctx.external && ctx.sharedDefsExtractedFor === ctx.external)
    return;
  const idToSchema = /* @__PURE__ */ new Map();
  for (const entry of ctx.seen.entries()) {
    const id = ctx.metadataRegistry.get(entry[0])?.id;
    if (id) {
      const existing = idToSchema.get(id);
      if (existing && existing !== entry[0]) {
        throw new Error(`Duplicate schema id "${id}" detected during JSON Schema conversion. Two different schemas cannot share the same id when converted together.`);
      }
      idToSchema.set(id, entry[0]);
    }
  }
  const makeURI = (entry) => {
    const defsSegment = ctx.target === "draft-2020-12" ? "$defs" : "definitions";
    if (ctx.external) {
      const externalId = ctx.external.registry.get(entry[0])?.id;
      const uriGenerator = ctx.external.uri ?? ((id2) => id2);
      if (externalId) {
        return { ref: uriGenerator(externalId) };
      }
      const id = entry[1].defId ?? entry[1].schema.id ?? `schema${ctx.counter++}`;
      entry[1].defId = id;
      return { defId: id, ref: `${uriGenerator("__shared")}#/${defsSegment}/${encodeJSONPointerSegment(id)}` };
    }
    const uriPrefix = `#`;
    const defUriPrefix = `${uriPrefix}/${defsSegment}/`;
    if (entry[1] === root && !entry[1].schema.id) {
      return { ref: uriPrefix };
    }
    const defId = entry[1].schema.id ?? `__schema${ctx.counter++}`;
    return { defId, ref: defUriPrefix + encodeJSONPointerSegment(defId) };
  };
  const extractToDef = (entry) => {
    if (entry[1].schema.$ref) {
      return;
    }
    const seen = entry[1];
    const { ref, defId } = makeURI(entry);
    seen.def = { ...seen.schema };
    if (defId)
      seen.defId = defId;
    const schema2 = seen.schema;
    for (const key in schema2) {
      delete schema2[key];
    }
    schema2.$ref = ref;
  };
  if (ctx.cycles === "throw") {
    for (const entry of ctx.seen.entries()) {
      const seen = entry[1];
      if (seen.cycle) {
        throw new Error(`Cycle detected: #/${seen.cycle?.join("/")}/<root>

Set the \`cycles\` parameter to \`"ref"\` to resolve cyclical schemas with defs.`);
      }
    }
  }
  for (const entry of ctx.seen.entries()) {
    const seen = entry[1];
    if (schema === entry[0]) {
      extractToDef(entry);
      continue;
    }
    if (ctx.external) {
      const ext = ctx.external.registry.get(entry[0])?.id;
      if (schema !== entry[0] && ext) {
        extractToDef(entry);
        continue;
      }
    }
    const id = ctx.metadataRegistry.get(entry[0])?.id;
    if (id) {
      extractToDef(entry);
      continue;
    }
    if (seen.cycle) {
      extractToDef(entry);
      continue;
    }
    if (seen.count > 1) {
      if (ctx.reused === "ref") {
        extractToDef(entry);
      }
    }
  }
  if (ctx.external)
    ctx.sharedDefsExtractedFor = ctx.external;
}
function compactTypeUnion(schema) {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length === 0 || schema.type !== void 0)
    return;
  const types = [];
  for (const option of options) {
    if (!option || typeof option !== "object")
      return;
    compactTypeUnion(option);
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== "type")
      return;
    const type = option.type;
    for (const member of Array.isArray(type) ? type : [type]) {
      if (typeof member !== "string")
        return;
      if (!types.includes(member))
        types.push(member);
    }
  }
  delete schema.anyOf;
  schema.type = types.length === 1 ? types[0] : types;
}
function undeclaredConstraint(member) {
  const extra = member.additionalProperties;
  if (extra === void 0 || extra === false || typeof extra !== "object" || extra === null)
    return null;
  return Object.keys(extra).length ? extra : null;
}
function foldObjects(members2) {
  const objects = [];
  for (const member of members2) {
    if (typeof member !== "object" || member.type !== "object")
      return null;
    for (const key in member) {
      if (!FOLDABLE_KEYS.has(key))
        return null;
    }
    objects.push(member);
  }
  const properties = {};
  const required2 = /* @__PURE__ */ new Set();
  for (const object2 of objects) {
    for (const key in object2.properties) {
      if (Object.prototype.hasOwnProperty.call(properties, key))
        continue;
      const parts = [];
      for (const other of objects) {
        const part = other.properties?.[key] ?? undeclaredConstraint(other);
        if (part === null || part === void 0)
          continue;
        if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part)))
          parts.push(part);
      }
      const merged = parts.length === 1 ? parts[0] : foldObjects(parts) ?? { allOf: parts };
      assignProp(properties, key, merged);
    }
    for (const key of object2.required ?? [])
      required2.add(key);
  }
  const folded = { type: "object", properties };
  if (required2.size)
    folded.required = [...required2];
  if (objects.every((object2) => object2.additionalProperties === false)) {
    folded.additionalProperties = false;
  } else {
    const constraints = [];
    for (const object2 of objects) {
      const constraint = undeclaredConstraint(object2);
      if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint)))
        constraints.push(constraint);
    }
    if (constraints.length === 1)
      folded.additionalProperties = constraints[0];
    else if (constraints.length > 1)
      folded.additionalProperties = { allOf: constraints };
  }
  return folded;
}
function foldIntersection(json) {
  const allOf = json.allOf;
  if (!Array.isArray(allOf) || allOf.length < 2)
    return;
  for (const key of FOLDABLE_KEYS)
    if (key in json)
      return;
  const unions = allOf.filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
  let folded = null;
  if (!unions.length) {
    folded = foldObjects(allOf);
  } else {
    const union2 = unions[0];
    const keyword = UNION_KEYS.find((k) => Array.isArray(union2[k]));
    if (Object.keys(union2).length !== 1)
      return;
    const rest = allOf.filter((m) => m !== union2);
    const branches = union2[keyword].map((branch) => foldObjects([...rest, branch]));
    if (branches.some((b) => !b))
      return;
    folded = { [keyword]: branches };
  }
  if (!folded)
    return;
  delete json.allOf;
  assignProps(json, folded);
}
function finalize(ctx, schema) {
  const root = ctx.seen.get(schema);
  if (!root)
    throw new Error("Unprocessed schema. This is a bug in Zod.");
  const flattenRef = (zodSchema) => {
    const seen = ctx.seen.get(zodSchema);
    if (seen.ref === null)
      return;
    const schema2 = seen.def ?? seen.schema;
    const _cached = { ...schema2 };
    const ref = seen.ref;
    seen.ref = null;
    if (ref) {
      flattenRef(ref);
      const refSeen = ctx.seen.get(ref);
      const refSchema = refSeen.schema;
      if (refSchema.$ref && (ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0")) {
        schema2.allOf = schema2.allOf ?? [];
        schema2.allOf.push(refSchema);
      } else {
        assignProps(schema2, refSchema);
      }
      assignProps(schema2, _cached);
      const isParentRef = zodSchema._zod.parent === ref;
      if (isParentRef) {
        for (const key in schema2) {
          if (key === "$ref" || key === "allOf")
            continue;
          if (!(key in _cached)) {
            delete schema2[key];
          }
        }
      }
      if (refSchema.$ref && refSeen.def) {
        for (const key in schema2) {
          if (key === "$ref" || key === "allOf")
            continue;
          if (key in refSeen.def && JSON.stringify(schema2[key]) === JSON.stringify(refSeen.def[key])) {
            delete schema2[key];
          }
        }
      }
    }
    const parent = zodSchema._zod.parent;
    if (parent && parent !== ref) {
      flattenRef(parent);
      const parentSeen = ctx.seen.get(parent);
      if (parentSeen?.schema.$ref) {
        schema2.$ref = parentSeen.schema.$ref;
        if (parentSeen.def) {
          for (const key in schema2) {
            if (key === "$ref" || key === "allOf")
              continue;
            if (key in parentSeen.def && JSON.stringify(schema2[key]) === JSON.stringify(parentSeen.def[key])) {
              delete schema2[key];
            }
          }
        }
      }
    }
    ctx.override({
      zodSchema,
      jsonSchema: schema2,
      path: seen.path ?? []
    });
  };
  if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
    for (const entry of [...ctx.seen.entries()].reverse()) {
      flattenRef(entry[0]);
    }
    if (ctx.target !== "openapi-3.0") {
      for (const entry of ctx.seen.entries()) {
        compactTypeUnion(entry[1].def ?? entry[1].schema);
      }
    }
    for (const rewrite of ctx.deferred)
      rewrite();
    if (ctx.intersections.length) {
      const carriers = /* @__PURE__ */ new Map();
      for (const seen of ctx.seen.values()) {
        for (const json of [seen.schema, seen.def]) {
          const allOf = json?.allOf;
          if (!Array.isArray(allOf))
            continue;
          const existing = carriers.get(allOf);
          if (existing)
            existing.push(json);
          else
            carriers.set(allOf, [json]);
        }
      }
      for (const allOf of ctx.intersections) {
        for (const json of carriers.get(allOf) ?? [])
          foldIntersection(json);
      }
    }
  }
  const result = {};
  if (ctx.target === "draft-2020-12") {
    result.$schema = "https://json-schema.org/draft/2020-12/schema";
  } else if (ctx.target === "draft-07") {
    result.$schema = "http://json-schema.org/draft-07/schema#";
  } else if (ctx.target === "draft-04") {
    result.$schema = "http://json-schema.org/draft-04/schema#";
  } else if (ctx.target === "openapi-3.0") {
  } else {
  }
  if (ctx.external?.uri) {
    const id = ctx.external.registry.get(schema)?.id;
    if (!id)
      throw new Error("Schema is missing an `id` property");
    result.$id = ctx.external.uri(id);
  }
  assignProps(result, root.defId ? root.schema : root.def ?? root.schema);
  const rootMetaId = ctx.metadataRegistry.get(schema)?.id;
  if (rootMetaId !== void 0 && result.id === rootMetaId)
    delete result.id;
  const defs = ctx.external?.defs ?? {};
  if (!ctx.external || ctx.sharedEmitDoneFor !== ctx.external) {
    for (const entry of ctx.seen.entries()) {
      const seen = entry[1];
      if (seen.def && seen.defId) {
        if (seen.def.id === seen.defId)
          delete seen.def.id;
        assignProp(defs, seen.defId, seen.def);
      }
    }
  }
  if (ctx.external)
    ctx.sharedEmitDoneFor = ctx.external;
  if (ctx.external) {
  } else {
    if (Object.keys(defs).length > 0) {
      if (ctx.target === "draft-2020-12") {
        result.$defs = defs;
      } else {
        result.definitions = defs;
      }
    }
  }
  try {
    const finalized = JSON.parse(JSON.stringify(result));
    Object.defineProperty(finalized, "~standard", {
      value: {
        ...schema["~standard"],
        jsonSchema: {
          input: createStandardJSONSchemaMethod(schema, "input", ctx.processors),
          output: createStandardJSONSchemaMethod(schema, "output", ctx.processors)
        }
      },
      enumerable: false,
      writable: false
    });
    return finalized;
  } catch (_err) {
    throw new Error("Error converting schema to JSON.");
  }
}
function isTransforming(_schema, _ctx) {
  const ctx = _ctx ?? { seen: /* @__PURE__ */ new Set() };
  if (ctx.seen.has(_schema))
    return false;
  ctx.seen.add(_schema);
  const def = _schema._zod.def;
  if (def.type === "transform")
    return true;
  if (def.type === "array")
    return isTransforming(def.element, ctx);
  if (def.type === "set")
    return isTransforming(def.valueType, ctx);
  if (def.type === "lazy")
    return isTransforming(def.getter(), ctx);
  if (def.type === "promise" || def.type === "optional" || def.type === "nonoptional" || def.type === "nullable" || def.type === "readonly" || def.type === "default" || def.type === "prefault" || def.type === "catch") {
    return isTransforming(def.innerType, ctx);
  }
  if (def.type === "intersection") {
    return isTransforming(def.left, ctx) || isTransforming(def.right, ctx);
  }
  if (def.type === "record" || def.type === "map") {
    return isTransforming(def.keyType, ctx) || isTransforming(def.valueType, ctx);
  }
  if (def.type === "pipe") {
    if (_schema._zod.traits.has("$ZodCodec"))
      return true;
    return isTransforming(def.in, ctx) || isTransforming(def.out, ctx);
  }
  if (def.type === "object") {
    for (const key in def.shape) {
      if (isTransforming(def.shape[key], ctx))
        return true;
    }
    return false;
  }
  if (def.type === "union") {
    for (const option of def.options) {
      if (isTransforming(option, ctx))
        return true;
    }
    return false;
  }
  if (def.type === "tuple") {
    for (const item of def.items) {
      if (isTransforming(item, ctx))
        return true;
    }
    if (def.rest && isTransforming(def.rest, ctx))
      return true;
    return false;
  }
  return false;
}
var FOLDABLE_KEYS, UNION_KEYS, createToJSONSchemaMethod, createStandardJSONSchemaMethod;
var init_to_json_schema = __esm({
  "node_modules/zod/v4/core/to-json-schema.js"() {
    init_registries();
    init_util();
    FOLDABLE_KEYS = /* @__PURE__ */ new Set(["type", "properties", "required", "additionalProperties"]);
    UNION_KEYS = ["oneOf", "anyOf"];
    createToJSONSchemaMethod = (schema, processors = {}) => (params) => {
      const ctx = initializeContext({ ...params, processors });
      processSchema(schema, ctx);
      extractDefs(ctx, schema);
      return finalize(ctx, schema);
    };
    createStandardJSONSchemaMethod = (schema, io, processors = {}) => (params) => {
      const { libraryOptions, target } = params ?? {};
      const ctx = initializeContext({ ...libraryOptions ?? {}, target, io, processors });
      processSchema(schema, ctx);
      extractDefs(ctx, schema);
      return finalize(ctx, schema);
    };
  }
});

// node_modules/zod/v4/core/json-schema-processors.js
function aggregateChecks(schema) {
  const agg = {};
  const def = schema._zod.def;
  const list3 = schema._zod.traits.has("$ZodCheck") ? [schema, ...def.checks ?? []] : def.checks ?? [];
  for (const ch of list3)
    contributors[ch._zod.def.check]?.(agg, ch._zod.def);
  const bag = schema._zod.bag;
  if (bag.minimum !== void 0)
    narrowMin(agg, "minimum", bag.minimum);
  if (bag.exclusiveMinimum !== void 0)
    narrowMin(agg, "exclusiveMinimum", bag.exclusiveMinimum);
  if (bag.maximum !== void 0)
    narrowMax(agg, "maximum", bag.maximum);
  if (bag.exclusiveMaximum !== void 0)
    narrowMax(agg, "exclusiveMaximum", bag.exclusiveMaximum);
  if (bag.multipleOf !== void 0)
    addDivisor(agg, bag.multipleOf);
  if (bag.format !== void 0) {
    agg.format ?? (agg.format = bag.format);
    if (bag.format.includes("int"))
      agg.isInt = true;
  }
  if (bag.mime)
    intersectMime(agg, bag.mime);
  for (const pattern of bag.patterns ?? [])
    addPattern(agg, pattern);
  return agg;
}
function inputOptin(schema) {
  const def = schema._zod.def;
  if (def.type === "pipe" && def.in._zod.traits.has("$ZodTransform")) {
    return inputOptin(def.out);
  }
  if (def.type === "catch") {
    return inputOptin(def.innerType);
  }
  return schema._zod.optin;
}
function stringifyKeyNames(bySchema, json, visited) {
  if (json.$ref) {
    if (visited.has(json))
      return json;
    visited.add(json);
    const def = bySchema.get(json)?.def;
    if (!def)
      return json;
    const inlined = stringifyKeyNames(bySchema, def, visited);
    return inlined === def ? json : inlined;
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = json[keyword];
    if (!Array.isArray(branches))
      continue;
    const mapped = branches.map((branch) => stringifyKeyNames(bySchema, branch, visited));
    if (mapped.some((branch, i) => branch !== branches[i]))
      json = { ...json, [keyword]: mapped };
  }
  const types = Array.isArray(json.type) ? json.type : [json.type];
  const numericType = !types.includes("string") && types.some((t) => t === "number" || t === "integer");
  const values = json.enum ?? (json.const !== void 0 ? [json.const] : void 0);
  if (!numericType && !values?.some((v) => typeof v === "number"))
    return json;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format, id, ...rest } = json;
  if (rest.enum)
    rest.enum = rest.enum.map((v) => typeof v === "number" ? String(v) : v);
  else if (typeof rest.const === "number")
    rest.const = String(rest.const);
  if (!numericType)
    return rest;
  rest.type = "string";
  if (!values)
    rest.pattern = (types.includes("number") ? number : integer).source;
  return rest;
}
function rewriteKeyNames(ctx) {
  const bySchema = /* @__PURE__ */ new Map();
  for (const entry of ctx.seen.values()) {
    if (entry.def && !bySchema.has(entry.schema))
      bySchema.set(entry.schema, entry);
  }
  const rewrites = /* @__PURE__ */ new Map();
  for (const record2 of pendingRecords.get(ctx) ?? []) {
    const seen = ctx.seen.get(record2);
    const names = (seen?.def ?? seen?.schema)?.propertyNames;
    if (!names || names === true || rewrites.has(names))
      continue;
    const rewritten = stringifyKeyNames(bySchema, names, /* @__PURE__ */ new Set());
    if (rewritten !== names)
      rewrites.set(names, rewritten);
  }
  if (!rewrites.size)
    return;
  for (const entry of ctx.seen.values()) {
    for (const carrier of [entry.schema, entry.def]) {
      const rewritten = carrier && rewrites.get(carrier.propertyNames);
      if (rewritten)
        carrier.propertyNames = rewritten;
    }
  }
}
function serializeDefaultValue(value, schema, ctx, json, params) {
  let unrepresentable = false;
  const serialized = JSON.stringify(value, (_, val) => {
    if (typeof val !== "bigint")
      return val;
    unrepresentable = true;
    return null;
  });
  if (!unrepresentable)
    return JSON.parse(serialized);
  handleUnrepresentable(schema, ctx, json, params, "BigInt defaults cannot be represented in JSON Schema");
  return UNREPRESENTABLE_DEFAULT;
}
var narrowMin, narrowMax, narrowBoth, addDivisor, addPattern, intersectMime, setFormat, minContributor, maxContributor, formatContributor, contributors, formatMap, exactPatterns, exactPattern, stringProcessor, numberProcessor, booleanProcessor, neverProcessor, unknownProcessor, enumProcessor, literalProcessor, customProcessor, transformProcessor, arrayProcessor, objectProcessor, unionProcessor, intersectionProcessor, pendingRecords, recordProcessor, nullableProcessor, nonoptionalProcessor, UNREPRESENTABLE_DEFAULT, defaultProcessor, prefaultProcessor, catchProcessor, pipeProcessor, readonlyProcessor, optionalProcessor;
var init_json_schema_processors = __esm({
  "node_modules/zod/v4/core/json-schema-processors.js"() {
    init_regexes();
    init_schemas();
    init_to_json_schema();
    init_util();
    narrowMin = (agg, key, value) => {
      if (agg[key] === void 0 || value > agg[key])
        agg[key] = value;
    };
    narrowMax = (agg, key, value) => {
      if (agg[key] === void 0 || value < agg[key])
        agg[key] = value;
    };
    narrowBoth = (agg, value) => {
      narrowMin(agg, "minimum", value);
      narrowMax(agg, "maximum", value);
    };
    addDivisor = (agg, value) => {
      agg.multipleOf ?? (agg.multipleOf = []);
      if (!agg.multipleOf.includes(value))
        agg.multipleOf.push(value);
    };
    addPattern = (agg, pattern) => {
      agg.patterns ?? (agg.patterns = /* @__PURE__ */ new Set());
      agg.patterns.add(pattern);
    };
    intersectMime = (agg, mime) => {
      agg.mime = agg.mime ? agg.mime.filter((m) => mime.includes(m)) : [...mime];
    };
    setFormat = (agg, format) => {
      agg.format = format;
      if (format.includes("int"))
        agg.isInt = true;
    };
    minContributor = (agg, def) => narrowMin(agg, "minimum", def.minimum);
    maxContributor = (agg, def) => narrowMax(agg, "maximum", def.maximum);
    formatContributor = (ranges) => (agg, def) => {
      setFormat(agg, def.format);
      const [minimum, maximum] = ranges[def.format];
      narrowMin(agg, "minimum", minimum);
      narrowMax(agg, "maximum", maximum);
    };
    contributors = {
      greater_than: (agg, def) => narrowMin(agg, def.inclusive ? "minimum" : "exclusiveMinimum", def.value),
      less_than: (agg, def) => narrowMax(agg, def.inclusive ? "maximum" : "exclusiveMaximum", def.value),
      multiple_of: (agg, def) => addDivisor(agg, def.value),
      number_format: formatContributor(NUMBER_FORMAT_RANGES),
      bigint_format: formatContributor(BIGINT_FORMAT_RANGES),
      min_length: minContributor,
      max_length: maxContributor,
      length_equals: (agg, def) => narrowBoth(agg, def.length),
      min_size: minContributor,
      max_size: maxContributor,
      size_equals: (agg, def) => narrowBoth(agg, def.size),
      string_format: (agg, def) => {
        setFormat(agg, def.format);
        if (def.pattern)
          addPattern(agg, def.pattern);
        if (def.format === "base64" || def.format === "base64url")
          agg.contentEncoding = def.format;
        if (def.local || def.precision === -1)
          agg.laxFormat = true;
      },
      mime_type: (agg, def) => intersectMime(agg, def.mime)
    };
    formatMap = {
      guid: "uuid",
      url: "uri",
      datetime: "date-time",
      json_string: "json-string",
      regex: ""
      // do not set
    };
    exactPatterns = /* @__PURE__ */ new Map([
      [base64Charset, base64],
      [base64urlCharset, base64url]
    ]);
    exactPattern = (p) => exactPatterns.get(p) ?? p;
    stringProcessor = (schema, ctx, _json, _params) => {
      const json = _json;
      json.type = "string";
      const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(schema);
      if (typeof minimum === "number")
        json.minLength = minimum;
      if (typeof maximum === "number")
        json.maxLength = maximum;
      if (format) {
        json.format = formatMap[format] ?? format;
        if (json.format === "")
          delete json.format;
        if (format === "time" || laxFormat) {
          delete json.format;
        }
      }
      if (contentEncoding)
        json.contentEncoding = contentEncoding;
      if (patterns && patterns.size > 0) {
        const patternList = [...patterns].map(exactPattern);
        if (patternList.length === 1)
          json.pattern = patternList[0].source;
        else if (patternList.length > 1) {
          json.allOf = [
            ...patternList.map((regex) => ({
              ...ctx.target === "draft-07" || ctx.target === "draft-04" || ctx.target === "openapi-3.0" ? { type: "string" } : {},
              pattern: regex.source
            }))
          ];
        }
      }
    };
    numberProcessor = (schema, ctx, _json, params) => {
      const json = _json;
      const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(schema);
      json.type = isInt ? "integer" : "number";
      const exMin = typeof exclusiveMinimum === "number" && exclusiveMinimum >= (minimum ?? Number.NEGATIVE_INFINITY);
      const exMax = typeof exclusiveMaximum === "number" && exclusiveMaximum <= (maximum ?? Number.POSITIVE_INFINITY);
      const legacy = ctx.target === "draft-04" || ctx.target === "openapi-3.0";
      if (exMin) {
        if (legacy) {
          json.minimum = exclusiveMinimum;
          json.exclusiveMinimum = true;
        } else {
          json.exclusiveMinimum = exclusiveMinimum;
        }
      } else if (typeof minimum === "number") {
        json.minimum = minimum;
      }
      if (exMax) {
        if (legacy) {
          json.maximum = exclusiveMaximum;
          json.exclusiveMaximum = true;
        } else {
          json.exclusiveMaximum = exclusiveMaximum;
        }
      } else if (typeof maximum === "number") {
        json.maximum = maximum;
      }
      if (multipleOf) {
        const divisors = /* @__PURE__ */ new Set();
        for (const divisor of multipleOf) {
          if (Number.isFinite(divisor) && divisor !== 0)
            divisors.add(Math.abs(divisor));
          else
            handleUnrepresentable(schema, ctx, json, params, `A multipleOf divisor of ${divisor} cannot be represented in JSON Schema`);
        }
        const [first, ...rest] = divisors;
        if (first !== void 0)
          json.multipleOf = first;
        if (rest.length)
          json.allOf = [...json.allOf ?? [], ...rest.map((m) => ({ multipleOf: m }))];
      }
    };
    booleanProcessor = (_schema, _ctx, json, _params) => {
      json.type = "boolean";
    };
    neverProcessor = (_schema, _ctx, json, _params) => {
      json.not = {};
    };
    unknownProcessor = (_schema, _ctx, _json, _params) => {
    };
    enumProcessor = (schema, _ctx, json, _params) => {
      const def = schema._zod.def;
      const values = getEnumValues(def.entries);
      if (values.length === 0) {
        json.not = {};
        return;
      }
      if (values.every((v) => typeof v === "number"))
        json.type = "number";
      if (values.every((v) => typeof v === "string"))
        json.type = "string";
      json.enum = values;
    };
    literalProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      if (def.values.length === 0) {
        json.not = {};
        return;
      }
      const vals = [];
      for (const val of def.values) {
        if (val === void 0) {
          if (handleUnrepresentable(schema, ctx, json, params, "Literal `undefined` cannot be represented in JSON Schema"))
            return;
        } else if (typeof val === "bigint") {
          if (handleUnrepresentable(schema, ctx, json, params, "BigInt literals cannot be represented in JSON Schema"))
            return;
          vals.push(Number(val));
        } else {
          vals.push(val);
        }
      }
      if (vals.length === 0) {
      } else if (vals.length === 1) {
        const val = vals[0];
        json.type = val === null ? "null" : typeof val;
        if (ctx.target === "draft-04" || ctx.target === "openapi-3.0") {
          json.enum = [val];
        } else {
          json.const = val;
        }
      } else {
        if (vals.every((v) => typeof v === "number"))
          json.type = "number";
        if (vals.every((v) => typeof v === "string"))
          json.type = "string";
        if (vals.every((v) => typeof v === "boolean"))
          json.type = "boolean";
        if (vals.every((v) => v === null))
          json.type = "null";
        json.enum = vals;
      }
    };
    customProcessor = (schema, ctx, json, params) => {
      handleUnrepresentable(schema, ctx, json, params, "Custom types cannot be represented in JSON Schema");
    };
    transformProcessor = (schema, ctx, json, params) => {
      handleUnrepresentable(schema, ctx, json, params, "Transforms cannot be represented in JSON Schema");
    };
    arrayProcessor = (schema, ctx, _json, params) => {
      const json = _json;
      const def = schema._zod.def;
      const { minimum, maximum } = aggregateChecks(schema);
      if (typeof minimum === "number")
        json.minItems = minimum;
      if (typeof maximum === "number")
        json.maxItems = maximum;
      json.type = "array";
      json.items = processSchema(def.element, ctx, {
        ...params,
        path: [...params.path, "items"]
      });
    };
    objectProcessor = (schema, ctx, _json, params) => {
      const json = _json;
      const def = schema._zod.def;
      const shape = def.shape;
      const symbolKeys = Object.getOwnPropertySymbols(shape);
      if (symbolKeys.length && handleUnrepresentable(schema, ctx, json, params, "Symbol keys cannot be represented in JSON Schema")) {
        return;
      }
      json.type = "object";
      json.properties = {};
      for (const key in shape) {
        assignProp(json.properties, key, processSchema(shape[key], ctx, {
          ...params,
          path: [...params.path, "properties", key]
        }));
      }
      const requiredKeys = [];
      for (const key of Object.keys(shape)) {
        const field = def.shape[key];
        if (ctx.io === "input" ? inputOptin(field) === void 0 : field._zod.optout === void 0) {
          requiredKeys.push(key);
        }
      }
      if (requiredKeys.length > 0) {
        json.required = requiredKeys;
      }
      if (def.catchall?._zod.def.type === "never") {
        json.additionalProperties = false;
      } else if (!def.catchall) {
        if (ctx.io === "output")
          json.additionalProperties = false;
      } else if (def.catchall) {
        json.additionalProperties = processSchema(def.catchall, ctx, {
          ...params,
          path: [...params.path, "additionalProperties"]
        });
      }
    };
    unionProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      const isExclusive = def.inclusive === false;
      const options = def.options.map((x, i) => processSchema(x, ctx, {
        ...params,
        path: [...params.path, isExclusive ? "oneOf" : "anyOf", i]
      }));
      if (isExclusive) {
        json.oneOf = options;
      } else {
        json.anyOf = options;
      }
    };
    intersectionProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      const a = processSchema(def.left, ctx, {
        ...params,
        path: [...params.path, "allOf", 0]
      });
      const b = processSchema(def.right, ctx, {
        ...params,
        path: [...params.path, "allOf", 1]
      });
      const isSimpleIntersection = (val) => "allOf" in val && Object.keys(val).length === 1;
      const allOf = [
        ...isSimpleIntersection(a) ? a.allOf : [a],
        ...isSimpleIntersection(b) ? b.allOf : [b]
      ];
      json.allOf = allOf;
      ctx.intersections.push(allOf);
    };
    pendingRecords = /* @__PURE__ */ new WeakMap();
    recordProcessor = (schema, ctx, _json, params) => {
      const json = _json;
      const def = schema._zod.def;
      json.type = "object";
      const keyType = def.keyType;
      const patterns = aggregateChecks(keyType).patterns;
      if (def.mode === "loose" && patterns && patterns.size > 0) {
        const valueSchema = processSchema(def.valueType, ctx, {
          ...params,
          path: [...params.path, "patternProperties", "*"]
        });
        json.patternProperties = {};
        for (const pattern of patterns) {
          assignProp(json.patternProperties, exactPattern(pattern).source, valueSchema);
        }
      } else {
        if (ctx.target === "draft-07" || ctx.target === "draft-2020-12") {
          json.propertyNames = processSchema(def.keyType, ctx, {
            ...params,
            path: [...params.path, "propertyNames"]
          });
          let pending = pendingRecords.get(ctx);
          if (!pending) {
            pending = [];
            pendingRecords.set(ctx, pending);
            ctx.deferred.push(() => rewriteKeyNames(ctx));
          }
          pending.push(schema);
        }
        json.additionalProperties = processSchema(def.valueType, ctx, {
          ...params,
          path: [...params.path, "additionalProperties"]
        });
      }
      const keyValues = keyType._zod.values;
      const omittableOnInput = ctx.io === "input" && inputOptin(def.valueType) !== void 0;
      if (keyValues && !def.partial && !omittableOnInput) {
        const validKeyValues = [...keyValues].filter((v) => typeof v === "string" || typeof v === "number");
        if (validKeyValues.length > 0) {
          json.required = validKeyValues.map(String);
        }
      }
    };
    nullableProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      const inner = processSchema(def.innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      if (ctx.target === "openapi-3.0") {
        seen.ref = def.innerType;
        json.nullable = true;
      } else {
        json.anyOf = [inner, { type: "null" }];
      }
    };
    nonoptionalProcessor = (schema, ctx, _json, params) => {
      const def = schema._zod.def;
      processSchema(def.innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      seen.ref = def.innerType;
    };
    UNREPRESENTABLE_DEFAULT = /* @__PURE__ */ Symbol();
    defaultProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      processSchema(def.innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      seen.ref = def.innerType;
      const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
      if (value !== UNREPRESENTABLE_DEFAULT)
        json.default = value;
    };
    prefaultProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      processSchema(def.innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      seen.ref = def.innerType;
      if (ctx.io !== "input")
        return;
      const value = serializeDefaultValue(def.defaultValue, schema, ctx, json, params);
      if (value !== UNREPRESENTABLE_DEFAULT)
        json._prefault = value;
    };
    catchProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      processSchema(def.innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      seen.ref = def.innerType;
      let catchValue;
      try {
        catchValue = def.catchValue(void 0);
      } catch {
        handleUnrepresentable(schema, ctx, json, params, "Dynamic catch values are not supported in JSON Schema");
        return;
      }
      json.default = catchValue;
    };
    pipeProcessor = (schema, ctx, _json, params) => {
      const def = schema._zod.def;
      const inIsTransform = def.in._zod.traits.has("$ZodTransform");
      const innerType = ctx.io === "input" ? inIsTransform ? def.out : def.in : def.out;
      processSchema(innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      seen.ref = innerType;
    };
    readonlyProcessor = (schema, ctx, json, params) => {
      const def = schema._zod.def;
      processSchema(def.innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      seen.ref = def.innerType;
      json.readOnly = true;
    };
    optionalProcessor = (schema, ctx, _json, params) => {
      const def = schema._zod.def;
      processSchema(def.innerType, ctx, params);
      const seen = ctx.seen.get(schema);
      seen.ref = def.innerType;
    };
  }
});

// node_modules/zod/v4/core/json-schema.js
var init_json_schema = __esm({
  "node_modules/zod/v4/core/json-schema.js"() {
  }
});

// node_modules/zod/v4/core/index.js
var init_core2 = __esm({
  "node_modules/zod/v4/core/index.js"() {
    init_core();
    init_parse();
    init_errors2();
    init_schemas();
    init_memoizer();
    init_checks();
    init_versions();
    init_util();
    init_regexes();
    init_locales();
    init_registries();
    init_doc();
    init_compile();
    init_api();
    init_to_json_schema();
    init_json_schema();
  }
});

// node_modules/zod/v4/classic/checks.js
var init_checks2 = __esm({
  "node_modules/zod/v4/classic/checks.js"() {
    init_core2();
  }
});

// node_modules/zod/v4/classic/errors.js
function _lazyMethod(proto, key, make) {
  Object.defineProperty(proto, key, {
    configurable: true,
    enumerable: false,
    get() {
      const value = make(this);
      Object.defineProperty(this, key, { value, configurable: true, writable: true });
      return value;
    },
    set(value) {
      Object.defineProperty(this, key, { value, configurable: true, writable: true });
    }
  });
}
var _installedErrorProtos, initializer2, ZodRealError;
var init_errors3 = __esm({
  "node_modules/zod/v4/classic/errors.js"() {
    init_core2();
    init_core2();
    init_util();
    _installedErrorProtos = /* @__PURE__ */ new WeakSet([Object.prototype, Error.prototype]);
    initializer2 = (inst, issues) => {
      $ZodError.init(inst, issues);
      inst.name = "ZodError";
      const proto = Object.getPrototypeOf(inst);
      if (_installedErrorProtos.has(proto))
        return;
      _installedErrorProtos.add(proto);
      _lazyMethod(proto, "format", (self) => (mapper) => formatError(self, mapper));
      _lazyMethod(proto, "flatten", (self) => (mapper) => flattenError(self, mapper));
      _lazyMethod(proto, "addIssue", (self) => (issue2) => {
        self.issues.push(issue2);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
      });
      _lazyMethod(proto, "addIssues", (self) => (issues2) => {
        self.issues.push(...issues2);
        self.message = JSON.stringify(self.issues, jsonStringifyReplacer, 2);
      });
      Object.defineProperty(proto, "isEmpty", {
        configurable: true,
        enumerable: false,
        get() {
          return this.issues.length === 0;
        }
      });
    };
    ZodRealError = /* @__PURE__ */ $constructor("ZodError", initializer2, void 0, {
      Parent: Error
    });
  }
});

// node_modules/zod/v4/classic/parse.js
var parse, parseAsync, safeParse, safeParseAsync, encode, decode, encodeAsync, decodeAsync, safeEncode, safeDecode, safeEncodeAsync, safeDecodeAsync;
var init_parse2 = __esm({
  "node_modules/zod/v4/classic/parse.js"() {
    init_core2();
    init_errors3();
    init_core2();
    parse = /* @__PURE__ */ _parse(ZodRealError);
    parseAsync = /* @__PURE__ */ _parseAsync(ZodRealError);
    safeParse = /* @__PURE__ */ _safeParse(ZodRealError);
    safeParseAsync = /* @__PURE__ */ _safeParseAsync(ZodRealError);
    encode = /* @__PURE__ */ _encode(ZodRealError);
    decode = /* @__PURE__ */ _decode(ZodRealError);
    encodeAsync = /* @__PURE__ */ _encodeAsync(ZodRealError);
    decodeAsync = /* @__PURE__ */ _decodeAsync(ZodRealError);
    safeEncode = /* @__PURE__ */ _safeEncode(ZodRealError);
    safeDecode = /* @__PURE__ */ _safeDecode(ZodRealError);
    safeEncodeAsync = /* @__PURE__ */ _safeEncodeAsync(ZodRealError);
    safeDecodeAsync = /* @__PURE__ */ _safeDecodeAsync(ZodRealError);
  }
});

// node_modules/zod/v4/classic/schemas.js
function _ensureDefaultLocale() {
  if (!globalConfig.localeError)
    config(en_default());
}
function _ensureDefaultMemoizer() {
  if (!globalConfig.memoizer)
    config({ memoizer: memoizer() });
}
function string2(params) {
  return _string(ZodString, params);
}
function number2(params) {
  return _number(ZodNumber, params);
}
function int(params) {
  return _int(ZodNumberFormat, params);
}
function boolean2(params) {
  return _boolean(ZodBoolean, params);
}
function unknown() {
  return _unknown(ZodUnknown);
}
function never(params) {
  return _never(ZodNever, params);
}
function array(element, params) {
  return _array(ZodArray, element, params);
}
function object(shape, params) {
  const def = {
    type: "object",
    shape: shape ?? {},
    ...util_exports.normalizeParams(params)
  };
  return new ZodObject(def);
}
function union(options, params) {
  return new ZodUnion({
    type: "union",
    options,
    ...util_exports.normalizeParams(params)
  });
}
function intersection(left, right) {
  return new ZodIntersection({
    type: "intersection",
    left,
    right
  });
}
function record(keyType, valueType, params) {
  if (!valueType || !valueType._zod) {
    return new ZodRecord({
      type: "record",
      keyType: string2(),
      valueType: keyType,
      ...util_exports.normalizeParams(valueType)
    });
  }
  return new ZodRecord({
    type: "record",
    keyType,
    valueType,
    ...util_exports.normalizeParams(params)
  });
}
function _enum(values, params) {
  const entries = Array.isArray(values) ? Object.fromEntries(values.map((v) => [v, v])) : values;
  return new ZodEnum({
    type: "enum",
    entries,
    ...util_exports.normalizeParams(params)
  });
}
function literal(value, params) {
  return new ZodLiteral({
    type: "literal",
    values: Array.isArray(value) ? value : [value],
    ...util_exports.normalizeParams(params)
  });
}
function transform(fn) {
  return new ZodTransform({
    type: "transform",
    transform: fn
  });
}
function optional(innerType) {
  return new ZodOptional({
    type: "optional",
    innerType
  });
}
function exactOptional(innerType) {
  return new ZodExactOptional({
    type: "optional",
    innerType
  });
}
function nullable(innerType) {
  return new ZodNullable({
    type: "nullable",
    innerType
  });
}
function _default(innerType, defaultValue) {
  return new ZodDefault({
    type: "default",
    innerType,
    get defaultValue() {
      return typeof defaultValue === "function" ? defaultValue() : util_exports.shallowClone(defaultValue);
    }
  });
}
function prefault(innerType, defaultValue) {
  return new ZodPrefault({
    type: "prefault",
    innerType,
    get defaultValue() {
      return typeof defaultValue === "function" ? defaultValue() : util_exports.shallowClone(defaultValue);
    }
  });
}
function nonoptional(innerType, params) {
  return new ZodNonOptional({
    type: "nonoptional",
    innerType,
    ...util_exports.normalizeParams(params)
  });
}
function _catch(innerType, catchValue) {
  return new ZodCatch({
    type: "catch",
    innerType,
    catchValue: typeof catchValue === "function" ? catchValue : util_exports.constantCatch(catchValue)
  });
}
function pipe(in_, out) {
  return new ZodPipe({
    type: "pipe",
    in: in_,
    out
    // ...util.normalizeParams(params),
  });
}
function readonly(innerType) {
  return new ZodReadonly({
    type: "readonly",
    innerType
  });
}
function refine(fn, _params = {}) {
  return _refine(ZodCustom, fn, _params);
}
function superRefine(fn, params) {
  return _superRefine(fn, params);
}
var ZodType, _ZodString, ZodString, ZodStringFormat, ZodISODateTime, ZodISODate, ZodISOTime, ZodISODuration, ZodEmail, ZodGUID, ZodUUID, ZodURL, ZodEmoji, ZodNanoID, ZodCUID, ZodCUID2, ZodULID, ZodXID, ZodKSUID, ZodIPv4, ZodIPv6, ZodCIDRv4, ZodCIDRv6, ZodBase64, ZodBase64URL, ZodE164, ZodJWT, ZodNumber, ZodNumberFormat, ZodBoolean, ZodUnknown, ZodNever, ZodArray, ZodObject, ZodUnion, ZodIntersection, ZodRecord, ZodEnum, ZodLiteral, ZodTransform, ZodOptional, ZodExactOptional, ZodNullable, ZodDefault, ZodPrefault, ZodNonOptional, ZodCatch, ZodPipe, ZodReadonly, ZodCustom;
var init_schemas2 = __esm({
  "node_modules/zod/v4/classic/schemas.js"() {
    init_core2();
    init_core2();
    init_json_schema_processors();
    init_to_json_schema();
    init_en();
    init_checks2();
    init_parse2();
    ZodType = /* @__PURE__ */ $constructor("ZodType", (inst, def) => {
      _ensureDefaultLocale();
      $ZodType.init(inst, def);
      inst.def = def;
      inst.type = def.type;
      return inst;
    }, {
      check(...chks) {
        const def = this.def;
        return this.clone(util_exports.mergeDefs(def, {
          checks: [
            ...def.checks ?? [],
            ...chks.map((ch) => typeof ch === "function" ? { _zod: { check: ch, def: { check: "custom" }, onattach: [] } } : ch)
          ]
        }), { parent: true });
      },
      with(...chks) {
        return this.check(...chks);
      },
      clone(def, params) {
        return clone(this, def, params);
      },
      brand() {
        return this;
      },
      register(reg, meta2) {
        reg.add(this, meta2);
        return this;
      },
      refine(check, params) {
        return this.check(refine(check, params));
      },
      superRefine(refinement, params) {
        return this.check(superRefine(refinement, params));
      },
      overwrite(fn) {
        return this.check(_overwrite(fn));
      },
      optional() {
        return optional(this);
      },
      exactOptional() {
        return exactOptional(this);
      },
      nullable() {
        return nullable(this);
      },
      nullish() {
        return optional(nullable(this));
      },
      nonoptional(params) {
        return nonoptional(this, params);
      },
      array() {
        return array(this);
      },
      or(arg) {
        return union([this, arg]);
      },
      and(arg) {
        return intersection(this, arg);
      },
      transform(tx) {
        return pipe(this, transform(tx));
      },
      default(d) {
        return _default(this, d);
      },
      prefault(d) {
        return prefault(this, d);
      },
      catch(params) {
        return _catch(this, params);
      },
      pipe(target) {
        return pipe(this, target);
      },
      readonly() {
        return readonly(this);
      },
      describe(description) {
        const cl = this.clone();
        globalRegistry.add(cl, { description });
        return cl;
      },
      meta(...args) {
        if (args.length === 0)
          return globalRegistry.get(this);
        const cl = this.clone();
        globalRegistry.add(cl, args[0]);
        return cl;
      },
      isOptional() {
        return this.safeParse(void 0).success;
      },
      isNullable() {
        return this.safeParse(null).success;
      },
      apply(fn, ...args) {
        return args.length === 0 ? fn(this) : fn(this, ...args);
      },
      // Overrides core's `~standard` to add `jsonSchema`. Must stay a prototype entry: redefining it per instance demotes instances to dictionary mode.
      get "~standard"() {
        return util_exports.hide(this, "~standard", {
          ...standardProps(this),
          jsonSchema: {
            input: createStandardJSONSchemaMethod(this, "input"),
            output: createStandardJSONSchemaMethod(this, "output")
          }
        });
      },
      set "~standard"(value) {
        util_exports.own(this, "~standard", value);
      },
      parse: function _parse2(data, params) {
        return parse(this, data, params, { callee: _parse2 });
      },
      parseAsync: async function _parseAsync2(data, params) {
        return await parseAsync(this, data, params, { callee: _parseAsync2 });
      },
      safeParse(data, params) {
        return safeParse(this, data, params);
      },
      async safeParseAsync(data, params) {
        return safeParseAsync(this, data, params);
      },
      // `spa` is an alias: same function object as `safeParseAsync`, as before.
      get spa() {
        return this?.safeParseAsync;
      },
      set spa(value) {
        util_exports.own(this, "spa", value);
      },
      validate(data, params) {
        return validate(this, data, params);
      },
      validateAsync(data, params) {
        return validateAsync(this, data, params);
      },
      encode: function _encode2(data, params) {
        return encode(this, data, params, { callee: _encode2 });
      },
      decode: function _decode2(data, params) {
        return decode(this, data, params, { callee: _decode2 });
      },
      encodeAsync: async function _encodeAsync2(data, params) {
        return await encodeAsync(this, data, params, { callee: _encodeAsync2 });
      },
      decodeAsync: async function _decodeAsync2(data, params) {
        return await decodeAsync(this, data, params, { callee: _decodeAsync2 });
      },
      safeEncode(data, params) {
        return safeEncode(this, data, params);
      },
      safeDecode(data, params) {
        return safeDecode(this, data, params);
      },
      async safeEncodeAsync(data, params) {
        return safeEncodeAsync(this, data, params);
      },
      async safeDecodeAsync(data, params) {
        return safeDecodeAsync(this, data, params);
      },
      toJSONSchema(params) {
        return createToJSONSchemaMethod(this, {})(params);
      },
      // Reads through to the registry on every access, so it must not cache.
      get description() {
        return globalRegistry.get(this)?.description;
      },
      // No setter: `schema._def = x` throws, as it did when `_def` was a non-writable own property.
      get _def() {
        return this._zod.def;
      }
    });
    _ZodString = /* @__PURE__ */ $constructor(
      "_ZodString",
      (inst, def) => {
        $ZodString.init(inst, def);
        ZodType.init(inst, def);
        inst._zod.processJSONSchema = (ctx, json, params) => stringProcessor(inst, ctx, json, params);
      },
      /* @__PURE__ */ util_exports.derived({
        format: (inst) => aggregateChecks(inst).format ?? null,
        minLength: (inst) => aggregateChecks(inst).minimum ?? null,
        maxLength: (inst) => aggregateChecks(inst).maximum ?? null
      }, {
        regex(...args) {
          return this.check(_regex(...args));
        },
        includes(...args) {
          return this.check(_includes(...args));
        },
        startsWith(...args) {
          return this.check(_startsWith(...args));
        },
        endsWith(...args) {
          return this.check(_endsWith(...args));
        },
        min(...args) {
          return this.check(_minLength(...args));
        },
        max(...args) {
          return this.check(_maxLength(...args));
        },
        length(...args) {
          return this.check(_length(...args));
        },
        nonempty(...args) {
          return this.check(_minLength(1, ...args));
        },
        lowercase(params) {
          return this.check(_lowercase(params));
        },
        uppercase(params) {
          return this.check(_uppercase(params));
        },
        trim() {
          return this.check(_trim());
        },
        normalize(...args) {
          return this.check(_normalize(...args));
        },
        toLowerCase() {
          return this.check(_toLowerCase());
        },
        toUpperCase() {
          return this.check(_toUpperCase());
        },
        slugify() {
          return this.check(_slugify());
        }
      })
    );
    ZodString = /* @__PURE__ */ $constructor("ZodString", (inst, def) => {
      $ZodString.init(inst, def);
      _ZodString.init(inst, def);
    }, {
      email(params) {
        return this.check(_email(ZodEmail, params));
      },
      url(params) {
        return this.check(_url(ZodURL, params));
      },
      jwt(params) {
        return this.check(_jwt(ZodJWT, params));
      },
      emoji(params) {
        return this.check(_emoji2(ZodEmoji, params));
      },
      guid(params) {
        return this.check(_guid(ZodGUID, params));
      },
      uuid(params) {
        return this.check(_uuid(ZodUUID, params));
      },
      uuidv4(params) {
        return this.check(_uuidv4(ZodUUID, params));
      },
      uuidv6(params) {
        return this.check(_uuidv6(ZodUUID, params));
      },
      uuidv7(params) {
        return this.check(_uuidv7(ZodUUID, params));
      },
      nanoid(params) {
        return this.check(_nanoid(ZodNanoID, params));
      },
      cuid(params) {
        return this.check(_cuid(ZodCUID, params));
      },
      cuid2(params) {
        return this.check(_cuid2(ZodCUID2, params));
      },
      ulid(params) {
        return this.check(_ulid(ZodULID, params));
      },
      base64(params) {
        return this.check(_base64(ZodBase64, params));
      },
      base64url(params) {
        return this.check(_base64url(ZodBase64URL, params));
      },
      xid(params) {
        return this.check(_xid(ZodXID, params));
      },
      ksuid(params) {
        return this.check(_ksuid(ZodKSUID, params));
      },
      ipv4(params) {
        return this.check(_ipv4(ZodIPv4, params));
      },
      ipv6(params) {
        return this.check(_ipv6(ZodIPv6, params));
      },
      cidrv4(params) {
        return this.check(_cidrv4(ZodCIDRv4, params));
      },
      cidrv6(params) {
        return this.check(_cidrv6(ZodCIDRv6, params));
      },
      e164(params) {
        return this.check(_e164(ZodE164, params));
      },
      datetime(params) {
        return this.check(_isoDateTime(ZodISODateTime, params));
      },
      date(params) {
        return this.check(_isoDate(ZodISODate, params));
      },
      time(params) {
        return this.check(_isoTime(ZodISOTime, params));
      },
      duration(params) {
        return this.check(_isoDuration(ZodISODuration, params));
      }
    });
    ZodStringFormat = /* @__PURE__ */ $constructor("ZodStringFormat", (inst, def) => {
      $ZodStringFormat.init(inst, def);
      _ZodString.init(inst, def);
    });
    ZodISODateTime = /* @__PURE__ */ $constructor("ZodISODateTime", (inst, def) => {
      $ZodISODateTime.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodISODate = /* @__PURE__ */ $constructor("ZodISODate", (inst, def) => {
      $ZodISODate.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodISOTime = /* @__PURE__ */ $constructor("ZodISOTime", (inst, def) => {
      $ZodISOTime.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodISODuration = /* @__PURE__ */ $constructor("ZodISODuration", (inst, def) => {
      $ZodISODuration.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodEmail = /* @__PURE__ */ $constructor("ZodEmail", (inst, def) => {
      $ZodEmail.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodGUID = /* @__PURE__ */ $constructor("ZodGUID", (inst, def) => {
      $ZodGUID.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodUUID = /* @__PURE__ */ $constructor("ZodUUID", (inst, def) => {
      $ZodUUID.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodURL = /* @__PURE__ */ $constructor("ZodURL", (inst, def) => {
      $ZodURL.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodEmoji = /* @__PURE__ */ $constructor("ZodEmoji", (inst, def) => {
      $ZodEmoji.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodNanoID = /* @__PURE__ */ $constructor("ZodNanoID", (inst, def) => {
      $ZodNanoID.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodCUID = /* @__PURE__ */ $constructor("ZodCUID", (inst, def) => {
      $ZodCUID.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodCUID2 = /* @__PURE__ */ $constructor("ZodCUID2", (inst, def) => {
      $ZodCUID2.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodULID = /* @__PURE__ */ $constructor("ZodULID", (inst, def) => {
      $ZodULID.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodXID = /* @__PURE__ */ $constructor("ZodXID", (inst, def) => {
      $ZodXID.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodKSUID = /* @__PURE__ */ $constructor("ZodKSUID", (inst, def) => {
      $ZodKSUID.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodIPv4 = /* @__PURE__ */ $constructor("ZodIPv4", (inst, def) => {
      $ZodIPv4.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodIPv6 = /* @__PURE__ */ $constructor("ZodIPv6", (inst, def) => {
      $ZodIPv6.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodCIDRv4 = /* @__PURE__ */ $constructor("ZodCIDRv4", (inst, def) => {
      $ZodCIDRv4.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodCIDRv6 = /* @__PURE__ */ $constructor("ZodCIDRv6", (inst, def) => {
      $ZodCIDRv6.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodBase64 = /* @__PURE__ */ $constructor("ZodBase64", (inst, def) => {
      $ZodBase64.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodBase64URL = /* @__PURE__ */ $constructor("ZodBase64URL", (inst, def) => {
      $ZodBase64URL.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodE164 = /* @__PURE__ */ $constructor("ZodE164", (inst, def) => {
      $ZodE164.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodJWT = /* @__PURE__ */ $constructor("ZodJWT", (inst, def) => {
      $ZodJWT.init(inst, def);
      ZodStringFormat.init(inst, def);
    });
    ZodNumber = /* @__PURE__ */ $constructor(
      "ZodNumber",
      (inst, def) => {
        $ZodNumber.init(inst, def);
        ZodType.init(inst, def);
        inst._zod.processJSONSchema = (ctx, json, params) => numberProcessor(inst, ctx, json, params);
        inst.isFinite = true;
      },
      /* @__PURE__ */ util_exports.derived({
        minValue: (inst) => {
          const { minimum, exclusiveMinimum } = aggregateChecks(inst);
          return Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
        },
        maxValue: (inst) => {
          const { maximum, exclusiveMaximum } = aggregateChecks(inst);
          return Math.min(maximum ?? Number.POSITIVE_INFINITY, exclusiveMaximum ?? Number.POSITIVE_INFINITY);
        },
        isInt: (inst) => {
          const { isInt, multipleOf } = aggregateChecks(inst);
          return !!isInt || !!multipleOf?.some(Number.isSafeInteger);
        },
        format: (inst) => aggregateChecks(inst).format ?? null
      }, {
        gt(value, params) {
          return this.check(_gt(value, params));
        },
        gte(value, params) {
          return this.check(_gte(value, params));
        },
        min(value, params) {
          return this.check(_gte(value, params));
        },
        lt(value, params) {
          return this.check(_lt(value, params));
        },
        lte(value, params) {
          return this.check(_lte(value, params));
        },
        max(value, params) {
          return this.check(_lte(value, params));
        },
        int(params) {
          return this.check(int(params));
        },
        safe(params) {
          return this.check(int(params));
        },
        positive(params) {
          return this.check(_gt(0, params));
        },
        nonnegative(params) {
          return this.check(_gte(0, params));
        },
        negative(params) {
          return this.check(_lt(0, params));
        },
        nonpositive(params) {
          return this.check(_lte(0, params));
        },
        multipleOf(value, params) {
          return this.check(_multipleOf(value, params));
        },
        step(value, params) {
          return this.check(_multipleOf(value, params));
        },
        finite() {
          return this;
        }
      })
    );
    ZodNumberFormat = /* @__PURE__ */ $constructor("ZodNumberFormat", (inst, def) => {
      $ZodNumberFormat.init(inst, def);
      ZodNumber.init(inst, def);
    });
    ZodBoolean = /* @__PURE__ */ $constructor("ZodBoolean", (inst, def) => {
      $ZodBoolean.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => booleanProcessor(inst, ctx, json, params);
    });
    ZodUnknown = /* @__PURE__ */ $constructor("ZodUnknown", (inst, def) => {
      $ZodUnknown.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => unknownProcessor(inst, ctx, json, params);
    });
    ZodNever = /* @__PURE__ */ $constructor("ZodNever", (inst, def) => {
      $ZodNever.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => neverProcessor(inst, ctx, json, params);
    });
    ZodArray = /* @__PURE__ */ $constructor("ZodArray", (inst, def) => {
      _ensureDefaultMemoizer();
      $ZodArray.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => arrayProcessor(inst, ctx, json, params);
      inst.element = def.element;
    }, {
      min(n, params) {
        return this.check(_minLength(n, params));
      },
      nonempty(params) {
        return this.check(_minLength(1, params));
      },
      max(n, params) {
        return this.check(_maxLength(n, params));
      },
      length(n, params) {
        return this.check(_length(n, params));
      },
      unwrap() {
        return this.element;
      }
    });
    ZodObject = /* @__PURE__ */ $constructor("ZodObject", (inst, def) => {
      _ensureDefaultMemoizer();
      $ZodObjectJIT.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => objectProcessor(inst, ctx, json, params);
      util_exports.installLazyProp(inst, "shape", (self) => self._zod.def.shape, false);
    }, {
      keyof() {
        return _enum(Object.keys(this._zod.def.shape));
      },
      catchall(catchall) {
        return this.clone(util_exports.mergeDefs(this._zod.def, { catchall }));
      },
      passthrough() {
        return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: unknown() }));
      },
      loose() {
        return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: unknown() }));
      },
      strict() {
        return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: never() }));
      },
      strip() {
        return this.clone(util_exports.mergeDefs(this._zod.def, { catchall: void 0 }));
      },
      extend(incoming) {
        return util_exports.extend(this, incoming);
      },
      safeExtend(incoming) {
        return util_exports.safeExtend(this, incoming);
      },
      merge(other) {
        return util_exports.merge(this, other);
      },
      pick(mask) {
        return util_exports.pick(this, mask);
      },
      omit(mask) {
        return util_exports.omit(this, mask);
      },
      partial(...args) {
        return util_exports.partial(ZodOptional, this, args[0]);
      },
      exactPartial(...args) {
        return util_exports.partial(ZodExactOptional, this, args[0], "exactPartial");
      },
      required(...args) {
        return util_exports.required(ZodNonOptional, this, args[0]);
      }
    });
    ZodUnion = /* @__PURE__ */ $constructor("ZodUnion", (inst, def) => {
      $ZodUnion.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => unionProcessor(inst, ctx, json, params);
      inst.options = def.options;
    });
    ZodIntersection = /* @__PURE__ */ $constructor("ZodIntersection", (inst, def) => {
      $ZodIntersection.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => intersectionProcessor(inst, ctx, json, params);
    });
    ZodRecord = /* @__PURE__ */ $constructor("ZodRecord", (inst, def) => {
      _ensureDefaultMemoizer();
      $ZodRecord.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => recordProcessor(inst, ctx, json, params);
      inst.keyType = def.keyType;
      inst.valueType = def.valueType;
    });
    ZodEnum = /* @__PURE__ */ $constructor("ZodEnum", (inst, def) => {
      $ZodEnum.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => enumProcessor(inst, ctx, json, params);
      inst.enum = def.entries;
      inst.options = [...inst._zod.values];
      const keys = new Set(Object.keys(def.entries));
      inst.extract = (values, params) => {
        const newEntries = {};
        for (const value of values) {
          if (keys.has(value)) {
            newEntries[value] = def.entries[value];
          } else
            throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
          ...def,
          checks: [],
          ...util_exports.normalizeParams(params),
          entries: newEntries
        });
      };
      inst.exclude = (values, params) => {
        const newEntries = { ...def.entries };
        for (const value of values) {
          if (keys.has(value)) {
            delete newEntries[value];
          } else
            throw new Error(`Key ${value} not found in enum`);
        }
        return new ZodEnum({
          ...def,
          checks: [],
          ...util_exports.normalizeParams(params),
          entries: newEntries
        });
      };
    });
    ZodLiteral = /* @__PURE__ */ $constructor("ZodLiteral", (inst, def) => {
      $ZodLiteral.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => literalProcessor(inst, ctx, json, params);
      inst.values = new Set(def.values);
      Object.defineProperty(inst, "value", {
        get() {
          if (def.values.length > 1) {
            throw new Error("This schema contains multiple valid literal values. Use `.values` instead.");
          }
          return def.values[0];
        }
      });
    });
    ZodTransform = /* @__PURE__ */ $constructor("ZodTransform", (inst, def) => {
      _ensureDefaultMemoizer();
      $ZodTransform.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => transformProcessor(inst, ctx, json, params);
      inst._zod.parse = (payload, _ctx) => {
        if (_ctx.direction === "backward") {
          throw new $ZodEncodeError(inst.constructor.name);
        }
        payload.addIssue = (issue2) => {
          if (typeof issue2 === "string") {
            payload.issues.push(util_exports.issue(issue2, payload.value, def));
          } else {
            const _issue = issue2;
            if (_issue.fatal)
              _issue.continue = false;
            _issue.code ?? (_issue.code = "custom");
            if (!("input" in _issue))
              _issue.input = payload.value;
            _issue.inst ?? (_issue.inst = inst);
            payload.issues.push(util_exports.issue(_issue));
          }
        };
        const output = def.transform(payload.value, payload);
        if (output instanceof Promise) {
          return output.then((output2) => {
            payload.value = output2;
            return payload;
          });
        }
        payload.value = output;
        return payload;
      };
    });
    ZodOptional = /* @__PURE__ */ $constructor("ZodOptional", (inst, def) => {
      $ZodOptional.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
    });
    ZodExactOptional = /* @__PURE__ */ $constructor("ZodExactOptional", (inst, def) => {
      $ZodExactOptional.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => optionalProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
    });
    ZodNullable = /* @__PURE__ */ $constructor("ZodNullable", (inst, def) => {
      $ZodNullable.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => nullableProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
    });
    ZodDefault = /* @__PURE__ */ $constructor("ZodDefault", (inst, def) => {
      $ZodDefault.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => defaultProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
      inst.removeDefault = inst.unwrap;
    });
    ZodPrefault = /* @__PURE__ */ $constructor("ZodPrefault", (inst, def) => {
      $ZodPrefault.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => prefaultProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
    });
    ZodNonOptional = /* @__PURE__ */ $constructor("ZodNonOptional", (inst, def) => {
      $ZodNonOptional.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => nonoptionalProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
    });
    ZodCatch = /* @__PURE__ */ $constructor("ZodCatch", (inst, def) => {
      $ZodCatch.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => catchProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
      inst.removeCatch = inst.unwrap;
    });
    ZodPipe = /* @__PURE__ */ $constructor("ZodPipe", (inst, def) => {
      $ZodPipe.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => pipeProcessor(inst, ctx, json, params);
      inst.in = def.in;
      inst.out = def.out;
    });
    ZodReadonly = /* @__PURE__ */ $constructor("ZodReadonly", (inst, def) => {
      $ZodReadonly.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => readonlyProcessor(inst, ctx, json, params);
      inst.unwrap = () => inst._zod.def.innerType;
    });
    ZodCustom = /* @__PURE__ */ $constructor("ZodCustom", (inst, def) => {
      $ZodCustom.init(inst, def);
      ZodType.init(inst, def);
      inst._zod.processJSONSchema = (ctx, json, params) => customProcessor(inst, ctx, json, params);
    });
  }
});

// node_modules/zod/v4/classic/compat.js
var ZodFirstPartyTypeKind;
var init_compat = __esm({
  "node_modules/zod/v4/classic/compat.js"() {
    /* @__PURE__ */ (function(ZodFirstPartyTypeKind2) {
    })(ZodFirstPartyTypeKind || (ZodFirstPartyTypeKind = {}));
  }
});

// node_modules/zod/v4/classic/iso.js
var init_iso = __esm({
  "node_modules/zod/v4/classic/iso.js"() {
  }
});

// node_modules/zod/v4/classic/coerce.js
var init_coerce = __esm({
  "node_modules/zod/v4/classic/coerce.js"() {
  }
});

// node_modules/zod/v4/classic/external.js
var init_external = __esm({
  "node_modules/zod/v4/classic/external.js"() {
    init_core2();
    init_schemas2();
    init_checks2();
    init_errors3();
    init_parse2();
    init_compat();
    init_locales();
    init_iso();
    init_coerce();
  }
});

// node_modules/zod/index.js
var init_zod = __esm({
  "node_modules/zod/index.js"() {
    init_external();
  }
});

// types/config.ts
var OnDirty, Identity, DEFAULT_IDENTITY, DEFAULT_ON_DIRTY, DEFAULT_GIT_TIMEOUT_MS, DEFAULT_MAX_FILE_SIZE_BYTES, DEFAULT_KEEP, DEFAULT_MAX_STORE_BYTES, DEFAULT_HOOK_TIMEOUT_MS, Config;
var init_config = __esm({
  "types/config.ts"() {
    "use strict";
    init_zod();
    OnDirty = _enum(["wip-commit", "error"]);
    Identity = object({ name: string2().min(1), email: string2().min(1) }).strict();
    DEFAULT_IDENTITY = { name: "agentgate", email: "agentgate@localhost" };
    DEFAULT_ON_DIRTY = "wip-commit";
    DEFAULT_GIT_TIMEOUT_MS = 12e4;
    DEFAULT_MAX_FILE_SIZE_BYTES = 10 * 1024 * 1024;
    DEFAULT_KEEP = 100;
    DEFAULT_MAX_STORE_BYTES = 2 * 1024 ** 3;
    DEFAULT_HOOK_TIMEOUT_MS = 5e3;
    Config = object({
      artifactsDir: string2().min(1).optional(),
      identity: Identity.optional(),
      onDirty: OnDirty.optional(),
      gitTimeoutMs: number2().int().positive().optional(),
      lockTimeoutMs: number2().int().positive().optional(),
      checkpoints: object({
        maxFileSizeBytes: number2().int().positive().optional(),
        keep: number2().int().positive().optional(),
        maxStoreBytes: number2().int().positive().optional()
      }).strict().optional(),
      hooks: object({
        timeoutMs: number2().int().positive().optional(),
        /** Keep the whole prompt in a hook's checkpoint label (default: a short label only). */
        recordPrompts: boolean2().optional()
      }).strict().optional()
    }).strict();
  }
});

// types/ids.ts
var OBJECT_ID_SOURCE, OBJECT_ID_PATTERN;
var init_ids = __esm({
  "types/ids.ts"() {
    "use strict";
    OBJECT_ID_SOURCE = "[0-9a-f]{40}(?:[0-9a-f]{24})?";
    OBJECT_ID_PATTERN = new RegExp(`^${OBJECT_ID_SOURCE}$`);
  }
});

// types/snapshot.ts
var SAFE_ID, SafeId, Sha, IsoDate, HeadState, SkippedPath, BeforeState, FileStatus, FileChange, DiffStats, CommitInfo, Snapshot;
var init_snapshot = __esm({
  "types/snapshot.ts"() {
    "use strict";
    init_zod();
    init_ids();
    SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
    SafeId = string2().regex(SAFE_ID, "use 1-128 characters from A-Z a-z 0-9 . _ - starting with a letter or digit").refine(
      (s) => !s.includes("..") && !s.endsWith(".lock") && !s.endsWith("."),
      'must not contain ".." or end with "." or ".lock"'
    );
    Sha = string2().regex(OBJECT_ID_PATTERN, "a full hexadecimal object id");
    IsoDate = string2().datetime({ offset: true });
    HeadState = _enum(["branch", "detached", "unborn"]);
    SkippedPath = object({
      path: string2().min(1),
      reason: _enum(["special-file", "unreadable"])
    });
    BeforeState = object({
      sha: Sha,
      branch: string2().min(1),
      isDirty: boolean2(),
      wipSha: Sha.nullable(),
      capturedAt: IsoDate,
      runId: SafeId,
      headState: HeadState,
      /** With `before --init`: repositories found nested in the directory, left out of the first commit (and of later ones, through info/exclude). */
      nestedRepositories: array(string2()).optional(),
      /** Paths the WIP commit could not take. */
      skipped: array(SkippedPath).optional()
    });
    FileStatus = _enum(["added", "modified", "deleted", "renamed", "copied", "typechange"]);
    FileChange = object({
      path: string2().min(1),
      oldPath: string2().min(1).nullable(),
      status: FileStatus,
      insertions: number2().int().nonnegative(),
      deletions: number2().int().nonnegative(),
      binary: boolean2()
    });
    DiffStats = object({
      filesChanged: number2().int().nonnegative(),
      insertions: number2().int().nonnegative(),
      deletions: number2().int().nonnegative(),
      files: array(FileChange)
    });
    CommitInfo = object({
      sha: Sha,
      message: string2(),
      author: string2(),
      date: IsoDate,
      parents: array(Sha)
    });
    Snapshot = object({
      id: SafeId,
      runId: SafeId,
      iteration: number2().int().nonnegative(),
      beforeSha: Sha,
      afterSha: Sha,
      branch: string2().min(1),
      commitMessage: string2(),
      patchPath: string2().nullable(),
      patchSha256: string2().regex(/^[0-9a-f]{64}$/).nullable(),
      filesChanged: number2().int().nonnegative(),
      insertions: number2().int().nonnegative(),
      deletions: number2().int().nonnegative(),
      createdAt: IsoDate,
      files: array(FileChange),
      workspace: string2().min(1),
      ref: string2().nullable(),
      /** The whole task prompt and the gate plan source given to `after` (the commit message keeps the task's first 100 characters). */
      task: string2().nullable().optional(),
      /** Paths the iteration's commit could not take (left as they were). */
      skipped: array(SkippedPath).optional(),
      gate: string2().nullable().optional(),
      /** For a snapshot rebuilt from a fetched or imported record: the workspace where it was recorded (`workspace` is the one on this machine). */
      recordedWorkspace: string2().min(1).optional()
    });
  }
});

// src/store/paths.ts
import { homedir } from "node:os";
import { join, resolve } from "node:path";
function resolveHome(explicit) {
  const chosen = explicit ?? process.env.AGENTGATE_HOME;
  return chosen ? resolve(chosen) : join(homedir(), ".agentgate");
}
function layout(home) {
  return {
    home,
    snapshots: join(home, "snapshots"),
    runs: join(home, "runs"),
    gates: join(home, "gates"),
    artifacts: join(home, "artifacts"),
    checkpoints: join(home, "checkpoints"),
    locks: join(home, "locks"),
    logs: join(home, "logs"),
    config: join(home, "config.yaml")
  };
}
function assertSafeId(value, what) {
  const parsed = SafeId.safeParse(value);
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message ?? "invalid";
    throw new InvalidIdError(`${what} ${JSON.stringify(value.slice(0, 80))} is not allowed: ${reason}`, {
      details: { value: value.slice(0, 200), what }
    });
  }
  return value;
}
function patchPath(artifactsDir, runId, iteration) {
  return join(artifactsDir, assertSafeId(runId, "run id"), `iteration-${iteration}`, "patch.diff");
}
var init_paths = __esm({
  "src/store/paths.ts"() {
    "use strict";
    init_snapshot();
    init_errors();
  }
});

// src/cli/output.ts
function useColour(stream) {
  return Boolean(stream.isTTY) && process.env.NO_COLOR === void 0 && process.env.TERM !== "dumb";
}
function paint(text, colour, on) {
  return on ? `\x1B[${CODES[colour]}m${text}\x1B[0m` : text;
}
function visibleWidth(text) {
  return text.replace(ANSI, "").length;
}
function printable(text) {
  return text.replace(CONTROL, (c) => {
    if (c.length > 1) return c;
    const named = { "\n": "\\n", "\r": "\\r", "	": "\\t" };
    return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
}
function table(headers, cells) {
  const rows = cells.map((r) => r.map(printable));
  const widths = headers.map(
    (h, i) => Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[i] ?? "")))
  );
  const numeric = headers.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^[+-]?\d+$/.test((r[i] ?? "").replace(ANSI, "")))
  );
  const line = (cells2) => cells2.map((c, i) => {
    const pad = " ".repeat(Math.max(0, (widths[i] ?? 0) - visibleWidth(c)));
    return numeric[i] ? pad + c : c + pad;
  }).join("  ").trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
function short(sha) {
  return sha ? sha.slice(0, 10) : "-";
}
var CODES, ANSI, CONTROL;
var init_output = __esm({
  "src/cli/output.ts"() {
    "use strict";
    CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 };
    ANSI = /\u001b\[[0-9;]*m/g;
    CONTROL = /\u001b\[[0-9;]*m|[\u0000-\u001f\u007f-\u009f]/g;
  }
});

// src/cli/spec.ts
function defineCommand(def) {
  return {
    ...def,
    usage: def.usage ?? generatedUsage(def.name, def.options, def.positionals),
    run: def.run
  };
}
function generatedUsage(name, options, positionals) {
  const parts = [name];
  for (const [key, decl] of Object.entries(options)) {
    const text = decl.type === "boolean" ? `--${key}` : `--${key} ${placeholder(decl)}`;
    parts.push(decl.type !== "boolean" && decl.required === true ? text : `[${text}]`);
  }
  parts.push(...positionals.required, ...(positionals.optional ?? []).map((p) => `[${p}]`));
  if (positionals.rest) parts.push(`[${positionals.rest}...]`);
  return parts.join(" ");
}
function placeholder(decl) {
  if (decl.valueName) return decl.valueName;
  if (decl.type === "string" && decl.choices) return decl.choices.join("|");
  return decl.type === "integer" ? "N" : "VALUE";
}
function parseCommandLine(command, args) {
  const decls = { ...GLOBAL_OPTIONS, ...command.options };
  const raw = /* @__PURE__ */ new Map();
  const positionals = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const { name, shown, inline } = splitOption(arg, decls);
    const decl = name === void 0 ? void 0 : decls[name];
    if (name === void 0 || decl === void 0) {
      throw new UsageError(
        `unknown option ${shown} for "${command.name}"; run "${PROGRAM} ${command.name} --help" for its options`,
        { details: { option: shown } }
      );
    }
    if (decl.type === "boolean") {
      if (inline !== void 0)
        throw new UsageError(`option ${shown} takes no value`, { details: { option: shown } });
      raw.set(name, true);
      continue;
    }
    let value = inline;
    if (value === void 0) {
      const next = args[i + 1];
      if (next === void 0 || next.startsWith("-") && next !== "-") {
        throw new UsageError(
          `option ${shown} needs a value (${shown} ${placeholder(decl)}${next === void 0 ? "" : `, or ${shown}=${placeholder(decl)} for a value starting with "-"`})`,
          {
            details: { option: shown }
          }
        );
      }
      value = next;
      i++;
    }
    raw.set(name, value);
  }
  const help = raw.get("help") === true || raw.get("version") === true;
  if (!help) checkPositionals(command, positionals.length);
  const values = {};
  for (const [name, decl] of Object.entries(decls)) values[name] = convert(name, decl, raw.get(name), help);
  return { values, positionals };
}
function splitOption(arg, decls) {
  if (arg.startsWith("--")) {
    const eq = arg.indexOf("=");
    const name2 = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    return {
      name: Object.hasOwn(decls, name2) ? name2 : void 0,
      shown: `--${name2}`,
      inline: eq < 0 ? void 0 : arg.slice(eq + 1)
    };
  }
  const letter = arg.slice(1, 2);
  const name = Object.entries(decls).find(([, d]) => d.short === letter)?.[0];
  const attached = arg.slice(2);
  return { name, shown: `-${letter}`, inline: attached === "" ? void 0 : attached.replace(/^=/, "") };
}
function checkPositionals(command, count) {
  const { required: required2, optional: optional2 = [], rest } = command.positionals;
  if (count < required2.length) {
    throw new UsageError(`missing ${required2.slice(count).join(" ")}; usage: ${PROGRAM} ${command.usage}`, {
      details: { missing: required2.slice(count) }
    });
  }
  if (!rest && count > required2.length + optional2.length)
    throw new UsageError(`too many arguments; usage: ${PROGRAM} ${command.usage}`);
}
function convert(name, decl, value, help) {
  if (decl.type === "boolean") return value === true;
  if (value === void 0 || value === true) {
    if (decl.default !== void 0) return decl.default;
    if (decl.required === true && !help)
      throw new UsageError(`--${name} ${placeholder(decl)} is required`, {
        details: { option: `--${name}` }
      });
    return void 0;
  }
  if (decl.required === true && value === "")
    throw new InvalidArgumentError(`--${name} must not be empty`, { details: { option: `--${name}` } });
  if (decl.type === "integer") {
    if (!/^\d{1,9}$/.test(value))
      throw new InvalidArgumentError(
        `--${name} must be a whole number from 0 up, not ${JSON.stringify(value.slice(0, 40))}`,
        { details: { option: `--${name}` } }
      );
    return Number(value);
  }
  if (decl.choices && !decl.choices.includes(value)) {
    throw new InvalidArgumentError(
      `--${name} must be one of ${decl.choices.join(", ")}, not ${JSON.stringify(value.slice(0, 40))}`,
      { details: { option: `--${name}` } }
    );
  }
  return value;
}
function atMostOne(values, names) {
  const given = names.filter((n) => values[n] !== void 0 && values[n] !== false);
  if (given.length > 1)
    throw new UsageError(`give ${names.map((n) => `--${n}`).join(" or ")}, not both`, {
      details: { options: given }
    });
}
function commandHelp(command) {
  const sections = [
    `Usage: ${PROGRAM} ${command.usage}`,
    command.summary,
    ...command.description ? [command.description] : []
  ];
  if (Object.keys(command.options).length > 0) sections.push(`Options:
${optionLines(command.options)}`);
  sections.push(`Global options:
${optionLines(GLOBAL_OPTIONS)}`);
  if (command.examples.length > 0)
    sections.push(
      `Example${command.examples.length > 1 ? "s" : ""}:
${command.examples.map((e) => `  ${PROGRAM} ${e}`).join("\n")}`
    );
  return sections.join("\n\n");
}
function optionLines(decls) {
  const heads = Object.entries(decls).map(([name, d]) => {
    const flag = `${d.short ? `-${d.short}, ` : "    "}--${name}`;
    return d.type === "boolean" ? flag : `${flag} ${placeholder(d)}`;
  });
  const width = Math.max(...heads.map((h) => h.length));
  return Object.values(decls).map((d, i) => `  ${heads[i].padEnd(width)}  ${describe2(d)}`).join("\n");
}
function describe2(d) {
  const notes = [];
  if (d.type === "string" && d.choices) notes.push(`one of: ${d.choices.join(", ")}`);
  if (d.type !== "boolean" && d.required === true) notes.push("required");
  const dflt = d.defaultText ?? (d.type !== "boolean" && d.default !== void 0 ? String(d.default) : void 0);
  if (dflt !== void 0) notes.push(`default: ${dflt}`);
  return notes.length > 0 ? `${d.description} (${notes.join("; ")})` : d.description;
}
var PROGRAM, CI_OPTION, GLOBAL_OPTIONS;
var init_spec = __esm({
  "src/cli/spec.ts"() {
    "use strict";
    init_errors();
    PROGRAM = "agentgate-snapshot";
    CI_OPTION = {
      type: "string",
      choices: ["github", "none"],
      valueName: "MODE",
      defaultText: "github when GITHUB_ACTIONS=true, else none"
    };
    GLOBAL_OPTIONS = {
      workspace: {
        type: "string",
        short: "C",
        valueName: "DIR",
        description: "the workspace",
        defaultText: "the current directory"
      },
      home: {
        type: "string",
        valueName: "DIR",
        description: "agentgate home",
        defaultText: "$AGENTGATE_HOME, else ~/.agentgate"
      },
      "artifacts-dir": {
        type: "string",
        valueName: "DIR",
        description: "where patch artifacts go",
        defaultText: "$AGENTGATE_ARTIFACTS_DIR, else <home>/artifacts"
      },
      config: {
        type: "string",
        valueName: "FILE",
        description: "configuration file",
        defaultText: "<home>/config.yaml"
      },
      json: { type: "boolean", description: "print exactly one JSON document on stdout" },
      help: { type: "boolean", short: "h", description: "show help" },
      version: { type: "boolean", short: "V", description: "print the version" }
    };
  }
});

// src/ci/github.ts
import { randomBytes } from "node:crypto";
import { appendFile } from "node:fs/promises";
function detectCi(flag, env = process.env) {
  if (flag !== void 0) {
    if (!CI_MODES.includes(flag))
      throw new InvalidArgumentError(`--ci must be one of ${CI_MODES.join(", ")}`);
    return { mode: flag, forced: true };
  }
  return { mode: env.GITHUB_ACTIONS === "true" ? "github" : "none", forced: false };
}
function githubFile(variable, forced, env = process.env) {
  const value = env[variable];
  if (value !== void 0 && value !== "") return value;
  if (forced)
    throw new CiEnvironmentError(
      `--ci github needs $${variable} to name a file; run inside a GitHub Actions step or use --ci none`,
      { details: { variable } }
    );
  return null;
}
function githubFileFor(flag, variable) {
  const ci = detectCi(flag);
  return ci.mode === "github" ? githubFile(variable, ci.forced) : null;
}
function formatKeyValues(values, random2 = randomDelimiter) {
  let out = "";
  for (const [name, raw] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name))
      throw new InvalidArgumentError(`output name ${JSON.stringify(name)} is not valid`);
    const value = raw === null ? "" : String(raw);
    let delimiter = random2();
    while (value.includes(delimiter) || name.includes(delimiter)) delimiter = random2();
    out += `${name}<<${delimiter}
${value}
${delimiter}
`;
  }
  return out;
}
function randomDelimiter() {
  return `ghadelimiter_${randomBytes(16).toString("hex")}`;
}
async function appendKeyValues(file, values) {
  await appendFile(file, formatKeyValues(values), "utf8");
}
async function appendStepSummary(file, markdown) {
  await appendFile(file, markdown.endsWith("\n") ? markdown : `${markdown}
`, "utf8");
}
function errorAnnotations(checks, max = MAX_ANNOTATIONS) {
  const failed = checks.filter((c) => !c.ok);
  const shown = failed.length > max ? max - 1 : failed.length;
  const lines = failed.slice(0, shown).map((c) => {
    const title = `agentgate verify: ${c.check}`;
    const where = c.snapshotId ? `snapshot ${c.snapshotId}` : c.runId ? `run ${c.runId}` : "store";
    return `::error title=${escapeProperty(title)}::${escapeData(`${where}: ${c.detail}`)}`;
  });
  if (shown < failed.length)
    lines.push(
      `::error title=${escapeProperty("agentgate verify")}::${escapeData(`${failed.length - shown} more failed checks not annotated; see the verify output`)}`
    );
  return lines;
}
function escapeData(text) {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function escapeProperty(text) {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
var CI_MODES, MAX_ANNOTATIONS;
var init_github = __esm({
  "src/ci/github.ts"() {
    "use strict";
    init_errors();
    CI_MODES = ["github", "none"];
    MAX_ANNOTATIONS = 10;
  }
});

// src/cli/commands/run-snapshots.ts
var run_snapshots_exports = {};
__export(run_snapshots_exports, {
  RUN_SNAPSHOT_COMMANDS: () => RUN_SNAPSHOT_COMMANDS,
  VERIFY_FAILED_EXIT: () => VERIFY_FAILED_EXIT
});
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as join2 } from "node:path";
async function statsFor(ctx, runId, positionals) {
  const [from, to] = positionals;
  if (runId !== void 0 && positionals.length > 0)
    throw new UsageError("give FROM TO, SNAPSHOT or --run ID, not several");
  if (from !== void 0 && to !== void 0) return ctx.snapshotter.stats(ctx.workspace, from, to);
  let range;
  if (from !== void 0) range = [await ctx.snapshotter.getSnapshot(from)];
  else if (runId !== void 0) range = await ctx.snapshotter.listByRun(runId);
  else
    throw new UsageError(
      'give FROM TO, SNAPSHOT or --run ID; run "agentgate-snapshot stats --help" for the forms'
    );
  const first = range[0];
  const last = range[range.length - 1];
  if (first === void 0 || last === void 0) {
    throw new SnapshotNotFoundError(`run ${runId ?? ""} has no snapshots yet; "after" records them`, {
      details: { runId }
    });
  }
  return ctx.snapshotter.stats(
    ctx.workspaceGiven ? ctx.workspace : first.workspace,
    first.beforeSha,
    last.afterSha
  );
}
function snapshotResult(s) {
  return {
    json: s,
    human: () => [
      `Snapshot ${s.id}: run ${s.runId} iteration ${s.iteration} on ${printable(s.branch)}`,
      `  ${short(s.beforeSha)}..${short(s.afterSha)}  ${s.filesChanged} files, +${s.insertions} -${s.deletions}${s.beforeSha === s.afterSha ? " (no change)" : ""}`,
      `  patch: ${printable(s.patchPath ?? "-")}`,
      ...s.files.length ? ["", filesTable(s.files)] : []
    ].join("\n")
  };
}
function statsText(s) {
  return `${s.filesChanged} files, +${s.insertions} -${s.deletions}${s.files.length ? `

${filesTable(s.files)}` : ""}`;
}
function filesTable(files) {
  return table(
    ["STATUS", "+", "-", "PATH"],
    files.map((f) => [
      f.status,
      f.binary ? "bin" : String(f.insertions),
      f.binary ? "bin" : String(f.deletions),
      f.oldPath ? `${f.oldPath} -> ${f.path}` : f.path
    ])
  );
}
async function readOptionFile(path, flag) {
  try {
    return await readFile(path, "utf8");
  } catch (cause) {
    throw new InvalidArgumentError(
      `cannot read ${flag} ${path}: ${cause.code ?? "error"}`,
      { cause, details: { option: flag } }
    );
  }
}
function afterOutputs(s, task) {
  return {
    "snapshot-id": s.id,
    "after-sha": s.afterSha,
    "patch-path": s.patchPath ?? "",
    "files-changed": s.filesChanged,
    insertions: s.insertions,
    deletions: s.deletions,
    "run-id": s.runId,
    iteration: s.iteration,
    // Step outputs share a 1 MiB budget per job: a long task file is cut.
    task: (task ?? "").slice(0, 64 * 1024)
  };
}
var VERIFY_FAILED_EXIT, RUN_ID, before, after, SNAPSHOT_KEY, show, list, runs, patch, stats, verify, del, cherryPick, RUN_SNAPSHOT_COMMANDS;
var init_run_snapshots = __esm({
  "src/cli/commands/run-snapshots.ts"() {
    "use strict";
    init_config();
    init_errors();
    init_paths();
    init_output();
    init_spec();
    init_github();
    VERIFY_FAILED_EXIT = 3;
    RUN_ID = {
      type: "string",
      valueName: "ID",
      description: 'the run id: letters, digits, ".", "_" and "-"'
    };
    before = defineCommand({
      name: "before",
      usage: "before --run ID [--on-dirty wip-commit|error] [--branch NAME] [--init]",
      summary: "Capture and record the before state of the run's next iteration (uncommitted work becomes a WIP commit).",
      options: {
        run: { ...RUN_ID, required: true },
        "on-dirty": {
          type: "string",
          choices: OnDirty.options,
          description: 'what to do with uncommitted work: commit it as "[agentgate] WIP before run", or refuse with DIRTY_WORKSPACE',
          defaultText: "onDirty in the config, else wip-commit"
        },
        branch: {
          type: "string",
          valueName: "NAME",
          description: "commit the run on branch NAME instead of the checked-out one: created at HEAD when missing (BRANCH_EXISTS when it is at another commit), HEAD is switched to it without touching files, and your branch never moves",
          defaultText: "the checked-out branch"
        },
        init: {
          type: "boolean",
          description: "initialise a directory that is not a repository yet (branch main) and commit its files as the first commit; nested repositories are left out and listed"
        }
      },
      positionals: { required: [] },
      examples: [
        'before --run "$RUN" -C "$WS" --json',
        'before --run "$RUN" --branch "agentgate/$RUN" -C "$WS"',
        'before --run "$RUN" -C ./new-project --init'
      ],
      async run(ctx, values) {
        const { "on-dirty": onDirty, branch } = values;
        const state = await ctx.snapshotter.captureBeforeState(ctx.workspace, {
          runId: values.run,
          init: values.init,
          ...onDirty ? { onDirty } : {},
          ...branch === void 0 ? {} : { branch }
        });
        return {
          json: state,
          human: () => `Run ${state.runId}: next iteration starts at ${short(state.sha)} on ${printable(state.branch)} (${state.headState})` + (state.wipSha ? `
Uncommitted work was saved as WIP commit ${short(state.wipSha)}.` : "") + (state.nestedRepositories?.length ? `
Nested repositories left out: ${printable(state.nestedRepositories.join(", "))}` : "")
        };
      }
    });
    after = defineCommand({
      name: "after",
      usage: "after --run ID --iteration N [--task TEXT | --task-file F] [--gate TEXT | --gate-file F] [--before SHA] [--ci github|none]",
      summary: "Stage everything, commit the iteration, compute stats, write the patch artifact and store the snapshot.",
      options: {
        run: { ...RUN_ID, required: true },
        iteration: {
          type: "integer",
          valueName: "N",
          description: "the iteration number, 0 or more; each number once per run",
          required: true
        },
        task: {
          type: "string",
          valueName: "TEXT",
          description: 'the task prompt; its first 100 characters go into the commit message as "Task:"'
        },
        "task-file": { type: "string", valueName: "F", description: "read the task prompt from file F" },
        gate: {
          type: "string",
          valueName: "TEXT",
          description: 'a label for the gate plan that checks the iteration (its source text or name), recorded on one line as "Gate:"'
        },
        "gate-file": {
          type: "string",
          valueName: "F",
          description: "read the gate label from file F (its text, not its name, is recorded)"
        },
        before: {
          type: "string",
          valueName: "SHA",
          description: "the iteration's start (a full or abbreviated SHA or any revision)",
          defaultText: "the run's recorded before state"
        },
        ci: {
          ...CI_OPTION,
          description: "GitHub Actions integration: github writes step outputs/annotations, none turns it off"
        }
      },
      positionals: { required: [] },
      examples: ['after --run "$RUN" --iteration 1 --task-file task.md --gate "npm test" -C "$WS" --json'],
      async run(ctx, values) {
        const outputFile = githubFileFor(values.ci, "GITHUB_OUTPUT");
        atMostOne(values, ["task", "task-file"]);
        atMostOne(values, ["gate", "gate-file"]);
        const taskPrompt = values["task-file"] === void 0 ? values.task : await readOptionFile(values["task-file"], "--task-file");
        const gatePlanSource = values["gate-file"] === void 0 ? values.gate : await readOptionFile(values["gate-file"], "--gate-file");
        const snapshot = await ctx.snapshotter.captureAfterState(ctx.workspace, null, {
          runId: values.run,
          iteration: values.iteration,
          ...taskPrompt === void 0 ? {} : { taskPrompt },
          ...gatePlanSource === void 0 ? {} : { gatePlanSource },
          ...values.before === void 0 ? {} : { beforeSha: values.before }
        });
        if (outputFile !== null) await appendKeyValues(outputFile, afterOutputs(snapshot, taskPrompt));
        return snapshotResult(snapshot);
      }
    });
    SNAPSHOT_KEY = "a snapshot id, or a full or abbreviated after SHA that names one snapshot";
    show = defineCommand({
      name: "show",
      usage: "show ID",
      summary: "Show one snapshot.",
      description: `ID is ${SNAPSHOT_KEY}.`,
      options: {},
      positionals: { required: ["ID"] },
      examples: ["show 3f2a9c1e0b --json"],
      async run(ctx, _values, [id]) {
        return snapshotResult(await ctx.snapshotter.getSnapshot(id));
      }
    });
    list = defineCommand({
      name: "list",
      usage: "list [--run ID]",
      summary: "List snapshots, by run then iteration.",
      options: { run: { ...RUN_ID, description: "only the snapshots of this run" } },
      positionals: { required: [] },
      examples: ['list --run "$RUN"'],
      async run(ctx, values) {
        const runId = values.run;
        const listed = runId === void 0 ? await ctx.snapshotter.store.list() : await ctx.snapshotter.store.inspectRun(assertSafeId(runId, "run id"));
        const snapshots = await Promise.all(listed.snapshots.map((s) => ctx.snapshotter.withLocalPaths(s)));
        return {
          json: snapshots,
          // stdout stays Snapshot[]; with --json, the files that do not load are named on stderr.
          warnings: listed.problems.map((p) => ({
            code: p.code,
            message: p.message,
            file: typeof p.details.path === "string" ? p.details.path : null
          })),
          human: (colour) => {
            const rows = snapshots.map((s) => [
              s.runId,
              String(s.iteration),
              s.id,
              String(s.filesChanged),
              `+${s.insertions}`,
              `-${s.deletions}`,
              short(s.afterSha),
              s.patchPath ?? "-"
            ]);
            const warnings = listed.problems.map(
              (p) => paint(`warning: ${p.code}: ${p.message}`, "yellow", colour)
            );
            return [
              rows.length ? table(["RUN", "ITER", "ID", "FILES", "+", "-", "AFTER", "PATCH"], rows) : "No snapshots.",
              ...warnings
            ].join("\n");
          }
        };
      }
    });
    runs = defineCommand({
      name: "runs",
      usage: "runs",
      summary: "List run records.",
      options: {},
      positionals: { required: [] },
      examples: ["runs --json"],
      async run(ctx) {
        const listed = await ctx.snapshotter.store.listRuns();
        const runs2 = await Promise.all(listed.runs.map((r) => ctx.snapshotter.withLocalWorkspace(r)));
        return {
          json: runs2,
          human: (colour) => {
            const rows = runs2.map((r) => [
              r.runId,
              String(r.snapshotIds.length),
              short(r.before?.sha),
              r.updatedAt,
              r.workspace
            ]);
            const warnings = listed.problems.map(
              (p) => paint(`warning: ${p.code}: ${p.message}`, "yellow", colour)
            );
            return [
              rows.length ? table(["RUN", "SNAPSHOTS", "BEFORE", "UPDATED", "WORKSPACE"], rows) : "No runs.",
              ...warnings
            ].join("\n");
          }
        };
      }
    });
    patch = defineCommand({
      name: "patch",
      usage: "patch ID [-o, --output FILE]",
      summary: "Print (or write to FILE) the snapshot's unified diff.",
      description: `ID is ${SNAPSHOT_KEY}. The diff is the patch artifact when it is intact, else regenerated from git, byte for byte. With --json: { "id", "diff" }, or { "id", "path" } with -o.`,
      options: {
        output: {
          type: "string",
          short: "o",
          valueName: "FILE",
          description: "write the diff to FILE (atomically) instead of printing it"
        }
      },
      positionals: { required: ["ID"] },
      examples: ["patch 3f2a9c1e0b -o iteration-1.diff"],
      async run(ctx, values, [id]) {
        const snapshot = await ctx.snapshotter.getSnapshot(id);
        const output = values.output;
        if (output !== void 0) {
          await ctx.snapshotter.generatePatch(snapshot, output);
          return { json: { id: snapshot.id, path: output }, human: () => `Wrote ${output}` };
        }
        const dir = await mkdtemp(join2(tmpdir(), "agentgate-patch-"));
        const file = join2(dir, "patch.diff");
        const cleanup = () => rm(dir, { recursive: true, force: true });
        try {
          await ctx.snapshotter.generatePatch(snapshot, file);
        } catch (error2) {
          await cleanup();
          throw error2;
        }
        if (ctx.json)
          return {
            streamJson: {
              prefix: `{
  "id": ${JSON.stringify(snapshot.id)},
  "diff": "`,
              file,
              suffix: '"\n}\n'
            },
            cleanup
          };
        return { streamFile: file, cleanup };
      }
    });
    stats = defineCommand({
      name: "stats",
      usage: "stats FROM TO | stats SNAPSHOT | stats --run ID",
      summary: "Diff statistics between two revisions, of one snapshot, or of a whole run.",
      description: `FROM TO: any two revisions of the workspace. SNAPSHOT: ${SNAPSHOT_KEY}; its before..after. --run ID: from the run's first snapshot's before SHA to its last snapshot's after SHA. A snapshot or run is read in its recorded workspace unless -C is given.`,
      options: {
        run: {
          ...RUN_ID,
          description: "the whole run: from its first snapshot's before SHA to its last snapshot's after SHA"
        }
      },
      positionals: { required: [], optional: ["FROM", "TO"] },
      examples: ["stats HEAD~3 HEAD", 'stats --run "$RUN" --json'],
      async run(ctx, values, positionals) {
        const result = await statsFor(ctx, values.run, positionals);
        return { json: result, human: () => statsText(result) };
      }
    });
    verify = defineCommand({
      name: "verify",
      usage: "verify [ID | --run ID | --all] [--ci github|none]",
      summary: "Validate stored snapshots against git, their artifacts and their runs; exits 3 when a check fails.",
      description: "Exit status: 0 every check passed; 3 a check failed (the report says which); 1 verify itself could not run, NOTHING_TO_VERIFY included (an empty or wrong home verifies nothing and never passes); 2 usage.",
      options: {
        run: { ...RUN_ID, description: "every snapshot of this run, and the run record" },
        all: {
          type: "boolean",
          description: "the whole store, including files that no longer load (the default when nothing is given)"
        },
        ci: {
          ...CI_OPTION,
          description: "GitHub Actions integration: github writes failed checks as ::error annotations, none turns it off"
        }
      },
      positionals: { required: [], optional: ["ID"] },
      examples: ['verify --run "$RUN"'],
      async run(ctx, values, [id]) {
        const ci = detectCi(values.ci);
        const chosen = [id !== void 0, values.run !== void 0, values.all].filter(Boolean).length;
        if (chosen > 1) throw new UsageError("give one of ID, --run ID or --all");
        const target = id !== void 0 ? { id } : values.run !== void 0 ? { runId: values.run } : { all: true };
        const report3 = await ctx.snapshotter.verify(target);
        return {
          json: report3,
          exitCode: report3.ok ? 0 : VERIFY_FAILED_EXIT,
          ...ci.mode === "github" ? { workflowCommands: errorAnnotations(report3.checks) } : {},
          human: (colour) => {
            const rows = report3.checks.map((c) => [
              c.ok ? paint("ok", "green", colour) : paint("FAIL", "red", colour),
              c.snapshotId ?? "-",
              c.check,
              c.detail
            ]);
            const verdict = report3.ok ? paint(`All ${report3.checks.length} checks passed.`, "green", colour) : paint(
              `${report3.checks.filter((c) => !c.ok).length} of ${report3.checks.length} checks failed.`,
              "red",
              colour
            );
            return `${rows.length ? `${table(["", "SNAPSHOT", "CHECK", "DETAIL"], rows)}
` : ""}${verdict}`;
          }
        };
      }
    });
    del = defineCommand({
      name: "delete",
      usage: "delete ID",
      summary: "Remove a snapshot's metadata and its link from its run (the commit stays in git).",
      options: {},
      positionals: { required: ["ID"] },
      examples: ["delete 3f2a9c1e0b"],
      async run(ctx, _values, [id]) {
        const deleted = await ctx.snapshotter.delete(id);
        return { json: { deleted }, human: () => `Deleted ${deleted}.` };
      }
    });
    cherryPick = defineCommand({
      name: "cherry-pick",
      usage: "cherry-pick ID [--onto BRANCH]",
      summary: "Apply a snapshot's whole change (before..after) as one commit on BRANCH.",
      options: {
        onto: {
          type: "string",
          valueName: "BRANCH",
          description: "the branch to commit on",
          defaultText: "the current branch"
        }
      },
      positionals: { required: ["ID"] },
      examples: ["cherry-pick 3f2a9c1e0b --onto release"],
      async run(ctx, values, [id]) {
        const commit = await ctx.snapshotter.cherryPick(id, values.onto);
        return {
          json: commit,
          human: () => `Created ${short(commit.sha)}${values.onto ? ` on ${printable(values.onto)}` : ""}: ${printable(commit.message.split("\n")[0] ?? "")}`
        };
      }
    });
    RUN_SNAPSHOT_COMMANDS = [
      before,
      after,
      show,
      list,
      runs,
      patch,
      stats,
      verify,
      del,
      cherryPick
    ];
  }
});

// src/fs/atomic.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import { mkdir, open as open2, rename, rm as rm2 } from "node:fs/promises";
import { basename, dirname, join as join3 } from "node:path";
function tempPathBeside(path) {
  return join3(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes2(6).toString("hex")}.tmp`);
}
async function replaceFileAtomic(path, fill) {
  const dir = dirname(path);
  const temp = tempPathBeside(path);
  try {
    await mkdir(dir, { recursive: true });
    const result = await fill(temp);
    await fsyncFile(temp);
    await rename(temp, path);
    await fsyncDir(dir);
    return result;
  } catch (cause) {
    await rm2(temp, { force: true }).catch(() => void 0);
    if (cause instanceof AgentgateError) throw cause;
    throw new WriteFailedError(
      `could not write ${path} (${errnoOf(cause)}); check free space and permissions, then retry`,
      { cause, details: { path } }
    );
  }
}
async function writeFileAtomic(path, data) {
  await replaceFileAtomic(path, async (temp) => {
    const handle = await open2(temp, "wx", 420);
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  });
}
async function writeJsonAtomic(path, value) {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}
`);
}
async function fsyncFile(path) {
  const handle = await open2(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
async function fsyncDir(dir) {
  let handle;
  try {
    handle = await open2(dir, "r");
    await handle.sync();
  } catch {
  } finally {
    await handle?.close().catch(() => void 0);
  }
}
function errnoOf(cause) {
  const code2 = cause?.code;
  return typeof code2 === "string" ? code2 : cause instanceof Error ? cause.message : String(cause);
}
var TEMP_NAME;
var init_atomic = __esm({
  "src/fs/atomic.ts"() {
    "use strict";
    init_errors();
    TEMP_NAME = /^\..*\.(\d+)\.[0-9a-f]{12}\.tmp$/;
  }
});

// src/fs/lock.ts
import { randomBytes as randomBytes3 } from "node:crypto";
import { readFileSync } from "node:fs";
import { link, mkdir as mkdir2, readFile as readFile2, rename as rename2, rm as rm3, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname as dirname2 } from "node:path";
async function withLock(path, opts, fn) {
  const handle = await acquire(path, opts);
  try {
    return await fn(handle);
  } finally {
    await release(handle);
  }
}
async function acquire(path, opts) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const startTime = processStartTime(process.pid);
  const owner = {
    pid: process.pid,
    hostname: hostname(),
    createdAt: (/* @__PURE__ */ new Date()).toISOString(),
    token: randomBytes3(12).toString("hex"),
    purpose: opts.purpose ?? "agentgate",
    ...startTime === null ? {} : { startTime }
  };
  HELD.add(owner.token);
  try {
    return await waitFor(path, owner, timeoutMs);
  } catch (error2) {
    HELD.delete(owner.token);
    throw error2;
  }
}
async function waitFor(path, owner, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  for (; ; ) {
    if (await tryCreate(path, owner)) return { path, owner, recovered: null };
    const current = await readOwner(path);
    if (current !== null && isProvablyDead(current) && await takeOver(path, current, owner)) {
      return { path, owner, recovered: current };
    }
    if (Date.now() >= deadline) {
      const who = current ? `process ${current.pid} on ${current.hostname} (${current.purpose}, since ${current.createdAt})` : "another process";
      throw new LockTimeoutError(
        `${path} is held by ${who}; waited ${timeoutMs} ms. Retry when it finishes, or delete the lock file if that process is gone`,
        { details: { path, owner: current, timeoutMs } }
      );
    }
    await sleep(Math.min(delay + Math.random() * delay, Math.max(1, deadline - Date.now())));
    delay = Math.min(delay * 2, 100);
  }
}
async function tryCreate(path, owner) {
  const temp = `${path}.${owner.token}.tmp`;
  const failed = (cause) => new WriteFailedError(
    `could not create lock ${path} (${errnoOf(cause)}); check permissions and free space`,
    { cause, details: { path } }
  );
  try {
    try {
      await mkdir2(dirname2(path), { recursive: true });
      await writeFile(temp, JSON.stringify(owner), { flag: "wx" });
    } catch (cause) {
      throw failed(cause);
    }
    try {
      await link(temp, path);
      return true;
    } catch (cause) {
      if (cause.code === "EEXIST") return false;
      throw failed(cause);
    }
  } finally {
    await rm3(temp, { force: true }).catch(() => void 0);
  }
}
async function takeOver(path, stale, owner) {
  const breaker2 = `${path}.break`;
  if (!await tryCreate(breaker2, owner)) {
    const other = await readOwner(breaker2);
    if (other !== null && isProvablyDead(other)) await removeIfStill(breaker2, other);
    return false;
  }
  const temp = `${path}.${owner.token}.tmp`;
  try {
    if ((await readOwner(path))?.token !== stale.token) return false;
    await writeFile(temp, JSON.stringify(owner), { flag: "wx" });
    await rename2(temp, path);
    return true;
  } catch (cause) {
    throw new WriteFailedError(
      `could not take over lock ${path} (${errnoOf(cause)}); check permissions and free space`,
      { cause, details: { path } }
    );
  } finally {
    await rm3(temp, { force: true }).catch(() => void 0);
    await rm3(breaker2, { force: true }).catch(() => void 0);
  }
}
async function readOwner(path) {
  try {
    const parsed = JSON.parse(await readFile2(path, "utf8"));
    if (typeof parsed.pid === "number" && typeof parsed.token === "string" && typeof parsed.hostname === "string") {
      return { createdAt: "", purpose: "unknown", ...parsed };
    }
  } catch {
  }
  return null;
}
function isProcessGone(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch (cause) {
    return cause.code === "ESRCH";
  }
}
function isProvablyDead(owner) {
  if (owner.hostname !== hostname()) return false;
  if (owner.pid === process.pid) return !HELD.has(owner.token);
  if (isProcessGone(owner.pid)) return true;
  const now = processStat(owner.pid);
  if (now === null) return false;
  if (now.state === "Z" || now.state === "X") return true;
  return owner.startTime !== void 0 && now.startTime !== owner.startTime;
}
function processStartTime(pid) {
  return processStat(pid)?.startTime ?? null;
}
function processStat(pid) {
  try {
    const stat12 = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat12.slice(stat12.lastIndexOf(")") + 2).split(" ");
    const [state, startTime] = [fields[0], fields[19]];
    return state === void 0 || startTime === void 0 ? null : { state, startTime };
  } catch {
    return null;
  }
}
async function removeIfStill(path, stale) {
  const grave = `${path}.${randomBytes3(6).toString("hex")}.stale`;
  try {
    await rename2(path, grave);
  } catch {
    return false;
  }
  const moved = await readOwner(grave);
  if (moved?.token !== stale.token) {
    await link(grave, path).catch(() => void 0);
    await rm3(grave, { force: true });
    return false;
  }
  await rm3(grave, { force: true });
  return true;
}
async function release(handle) {
  try {
    const current = await readOwner(handle.path);
    if (current?.token === handle.owner.token) await rm3(handle.path, { force: true });
  } finally {
    HELD.delete(handle.owner.token);
  }
}
function sleep(ms) {
  return new Promise((resolve13) => setTimeout(resolve13, ms));
}
var DEFAULT_LOCK_TIMEOUT_MS, HELD;
var init_lock = __esm({
  "src/fs/lock.ts"() {
    "use strict";
    init_errors();
    init_atomic();
    DEFAULT_LOCK_TIMEOUT_MS = 3e4;
    HELD = globalThis[/* @__PURE__ */ Symbol.for("agentgate.heldLocks")] ??= /* @__PURE__ */ new Set();
  }
});

// src/fs/sweep.ts
import { readdir, rm as rm4, stat } from "node:fs/promises";
import { join as join4 } from "node:path";
async function sweepTempFiles(dir, opts = {}) {
  const removed = [];
  for (const name of await listDir(dir)) {
    const m = (opts.pattern ?? TEMP_NAME).exec(name);
    if (m === null) continue;
    const path = join4(dir, name);
    const info = await stat(path).catch(() => null);
    if (info === null) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && isProcessGone(pid) || Date.now() - info.mtimeMs >= TEMP_SWEEP_AGE_MS) {
      await rm4(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}
async function sweepGitTemporaries(gitDir) {
  const removed = [];
  const objects = join4(gitDir, "objects");
  const dirs = [
    objects,
    join4(objects, "pack"),
    ...(await listDir(objects)).filter((n) => /^[0-9a-f]{2}$/.test(n)).map((n) => join4(objects, n))
  ];
  for (const dir of dirs) {
    for (const name of await listDir(dir)) {
      if (!GIT_TEMPORARY.test(name)) continue;
      const path = join4(dir, name);
      await rm4(path, { force: true, recursive: true });
      removed.push(path);
    }
  }
  await rm4(join4(gitDir, "gc.pid"), { force: true });
  return removed;
}
async function listDir(dir) {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
var TEMP_SWEEP_AGE_MS, GIT_TEMPORARY;
var init_sweep = __esm({
  "src/fs/sweep.ts"() {
    "use strict";
    init_atomic();
    init_lock();
    TEMP_SWEEP_AGE_MS = 60 * 60 * 1e3;
    GIT_TEMPORARY = /^(tmp_pack_|tmp_idx_|tmp_rev_|tmp_mtimes_|\.tmp-|tmp_obj_)/;
  }
});

// node_modules/nanoid/index.js
import { webcrypto as crypto } from "node:crypto";
function fillPool(bytes) {
  if (bytes < 0) throw new RangeError("Wrong ID size");
  try {
    if (!pool || pool.length < bytes) {
      pool = Buffer.allocUnsafe(bytes * POOL_SIZE_MULTIPLIER);
      crypto.getRandomValues(pool);
      poolOffset = 0;
    } else if (poolOffset + bytes > pool.length) {
      crypto.getRandomValues(pool);
      poolOffset = 0;
    }
  } catch (e) {
    pool = void 0;
    throw e;
  }
  poolOffset += bytes;
}
function random(bytes) {
  fillPool(bytes |= 0);
  return pool.subarray(poolOffset - bytes, poolOffset);
}
function customRandom(alphabet, defaultSize, getRandom) {
  let safeByteCutoff = 256 - 256 % alphabet.length;
  if (safeByteCutoff === 256) {
    let mask = alphabet.length - 1;
    return (size = defaultSize) => {
      if (!size) return "";
      let id = "";
      while (true) {
        let bytes = getRandom(size);
        let i = size;
        while (i--) {
          id += alphabet[bytes[i] & mask];
          if (id.length >= size) return id;
        }
      }
    };
  }
  let step = Math.ceil(1.6 * 256 * defaultSize / safeByteCutoff);
  return (size = defaultSize) => {
    if (!size) return "";
    let id = "";
    while (true) {
      let bytes = getRandom(step);
      let i = step;
      while (i--) {
        if (bytes[i] < safeByteCutoff) {
          id += alphabet[bytes[i] % alphabet.length];
          if (id.length >= size) return id;
        }
      }
    }
  };
}
function customAlphabet(alphabet, size = 21) {
  return customRandom(alphabet, size, random);
}
var POOL_SIZE_MULTIPLIER, pool, poolOffset;
var init_nanoid = __esm({
  "node_modules/nanoid/index.js"() {
    POOL_SIZE_MULTIPLIER = 128;
  }
});

// src/git/ids.ts
function isFullId(value) {
  return OBJECT_ID_PATTERN.test(value);
}
function assertGitId(value, command) {
  if (!isFullId(value)) {
    throw new GitOutputUnparseableError(
      `git ${command} printed ${JSON.stringify(value.slice(0, 80))} where an object id was expected`,
      {
        details: { args: [command], stdout: value.slice(0, 200) }
      }
    );
  }
  return value;
}
function isNullId(value) {
  return /^0+$/.test(value);
}
var init_ids2 = __esm({
  "src/git/ids.ts"() {
    "use strict";
    init_ids();
    init_errors();
  }
});

// src/git/parsers/nul-records.ts
function splitNul(text) {
  const parts = text.split("\0");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}
function unparseable(command, reason, sample = "") {
  return new GitOutputUnparseableError(
    `unexpected output from git ${command}: ${reason}; please report this with your git version`,
    {
      details: { command, reason, ...sample === "" ? {} : { sample: sample.slice(0, 120) } }
    }
  );
}
var init_nul_records = __esm({
  "src/git/parsers/nul-records.ts"() {
    "use strict";
    init_errors();
  }
});

// src/git/parsers/for-each-ref.ts
function parseRefRecords(text) {
  const out = [];
  const parts = text.split("\0");
  let i = 0;
  while (i + 5 <= parts.length - 1) {
    const ref = (parts[i] ?? "").replace(/^\n/, "");
    const [oid = "", tree = "", date2 = "", body = ""] = parts.slice(i + 1, i + 5);
    if (!ref.startsWith("refs/") || !OBJECT_ID_PATTERN.test(oid))
      throw unparseable("for-each-ref", "malformed ref record", ref);
    out.push({ ref, oid, tree, date: date2, body });
    i += 5;
  }
  const rest = parts.slice(i).join("\0").trim();
  if (rest !== "") throw unparseable("for-each-ref", "trailing output", rest);
  return out;
}
var REF_RECORD_FORMAT;
var init_for_each_ref = __esm({
  "src/git/parsers/for-each-ref.ts"() {
    "use strict";
    init_ids();
    init_nul_records();
    REF_RECORD_FORMAT = "%(refname)%00%(objectname)%00%(tree)%00%(creatordate:iso-strict)%00%(contents:body)%00";
  }
});

// src/git/hardening.ts
import { isAbsolute, join as join5 } from "node:path";
function parseConfigEntries(out) {
  return out.split("\0").filter((record2) => record2 !== "").map((record2) => {
    const nl = record2.indexOf("\n");
    return nl < 0 ? { key: record2, value: "" } : { key: record2.slice(0, nl), value: record2.slice(nl + 1) };
  });
}
function neutraliseDrivers(configKeys) {
  const out = /* @__PURE__ */ new Set();
  for (const key of configKeys) {
    const first = key.indexOf(".");
    const last = key.lastIndexOf(".");
    if (first < 0 || last <= first) continue;
    const section = key.slice(0, first).toLowerCase();
    const name = key.slice(first + 1, last);
    const keys = DRIVER_KEYS[section];
    if (keys === void 0) continue;
    for (const k of keys) out.add(`${section}.${name}.${k}=${section === "merge" ? "false" : ""}`);
    if (section === "filter") out.add(`filter.${name}.required=false`);
  }
  return [...out];
}
function buildEnv(identity, indexFile) {
  const env = {};
  for (const key of PASS_THROUGH) {
    const value = process.env[key];
    if (value !== void 0) env[key] = value;
  }
  Object.assign(env, {
    LC_ALL: "C",
    LANG: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    // A partial clone would fetch a missing object from its promisor remote, running that remote's
    // transport (an ext:: command, a configured upload-pack). We never fetch lazily, and the only
    // transports any call may use are these four (sharing's push and fetch included).
    GIT_NO_LAZY_FETCH: "1",
    GIT_ALLOW_PROTOCOL: "file:git:ssh:https",
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email
  });
  if (indexFile !== void 0) env.GIT_INDEX_FILE = indexFile;
  return env;
}
function userConfigFiles(env = process.env) {
  const home = env.HOME ?? "";
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join5(home, ".config");
  const global = env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : home === "" ? [] : [join5(xdg, "git", "config"), join5(home, ".gitconfig")];
  return { system: env.GIT_CONFIG_NOSYSTEM ? [] : ["/etc/gitconfig"], global };
}
var HARDENING_CONFIG, STAGING_CONFIG, DRIVER_KEYS, DRIVER_AND_INCLUDE_PATTERN, PASS_THROUGH;
var init_hardening = __esm({
  "src/git/hardening.ts"() {
    "use strict";
    HARDENING_CONFIG = [
      "core.hooksPath=/dev/null",
      "core.fsmonitor=false",
      "core.pager=cat",
      "core.editor=:",
      "core.quotePath=false",
      "diff.external=",
      "commit.gpgSign=false",
      "tag.gpgSign=false",
      "log.showSignature=false",
      "color.ui=false",
      // Porcelain we use (cherry-pick) may start `gc --auto` or maintenance; we never ask for that.
      "gc.auto=0",
      "maintenance.auto=false",
      // A repository that claims a case-insensitive filesystem would hide a new file whose name
      // differs from a tracked one by case alone: on the filesystems we run on, names are exact.
      "core.ignoreCase=false",
      // diff-tree still reads this one: it would change a patch regenerated later from the artifact.
      "diff.suppressBlankEmpty=false"
    ];
    STAGING_CONFIG = ["-c", "core.bigFileThreshold=16m"];
    DRIVER_KEYS = {
      filter: ["clean", "smudge", "process"],
      diff: ["command", "textconv"],
      merge: ["driver"]
    };
    DRIVER_AND_INCLUDE_PATTERN = "^(filter|diff|merge)\\..+\\.|^include(if\\..+)?\\.path$";
    PASS_THROUGH = ["PATH", "HOME", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "TZ"];
  }
});

// src/git/runner.ts
import { spawn } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { pipeline } from "node:stream/promises";
async function runGit(opts, args, run = {}) {
  const result = await runGitBuffer(opts, args, run);
  return { stdout: result.stdout.toString("utf8"), exitCode: result.exitCode };
}
async function runGitBuffer(opts, args, run = {}) {
  const chunks = [];
  const exitCode = await spawnGit(opts, args, run, async (stdout) => {
    for await (const chunk of stdout) chunks.push(chunk);
  });
  return { stdout: Buffer.concat(chunks), exitCode };
}
async function runGitToFile(opts, args, file) {
  const out = createWriteStream(file, { flags: "wx", mode: 420 });
  await spawnGit(
    opts,
    args,
    {},
    (stdout) => pipeline(stdout, out).catch((cause) => {
      throw new WriteFailedError(
        `could not write ${file} (${errnoText(cause)}); check free space and permissions`,
        { cause, details: { path: file } }
      );
    })
  );
  return out.bytesWritten;
}
async function runGitStream(opts, args, consume) {
  return spawnGit(opts, args, {}, consume);
}
async function spawnGit(opts, args, run, consume) {
  spawned += 1;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const signal = opts.signal === void 0 ? AbortSignal.timeout(timeoutMs) : AbortSignal.any([AbortSignal.timeout(timeoutMs), opts.signal]);
  const safeDirectories = run.withoutUserSafeDirectories ? [] : await userSafeDirectories();
  const configArgs = [...HARDENING_CONFIG, ...safeDirectories, ...opts.config ?? []].flatMap((c) => [
    "-c",
    c
  ]);
  const fullArgs = [...configArgs, ...locationArgs(opts), ...args];
  const details = { args: [...locationArgs(opts), ...args], cwd: opts.cwd };
  const child = spawn(opts.binary ?? "git", fullArgs, {
    cwd: opts.cwd,
    env: buildEnv(opts.identity ?? DEFAULT_IDENTITY, opts.indexFile),
    stdio: [run.input === void 0 ? "ignore" : "pipe", "pipe", "pipe"],
    signal
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    if (stderr.length < 65536) stderr += chunk.toString("utf8");
  });
  if (child.stdin) {
    child.stdin.on("error", () => void 0);
    child.stdin.end(run.input);
  }
  const exited = new Promise((resolve13, reject) => {
    child.once("error", reject);
    child.once("close", (code2) => resolve13(code2 ?? -1));
  });
  let consumeError = null;
  const consumed = consume(child.stdout).catch((error2) => {
    consumeError = error2;
    child.kill();
  });
  let exitCode;
  try {
    [exitCode] = await Promise.all([exited, consumed]);
  } catch (cause) {
    if (opts.signal?.aborted === true) {
      throw new GitTimeoutError(`git ${args[0] ?? ""} was stopped: the caller's time budget ran out`, {
        cause,
        details
      });
    }
    if (signal.aborted) {
      throw new GitTimeoutError(
        `git ${args[0] ?? ""} did not finish within ${timeoutMs} ms and was stopped; raise gitTimeoutMs in config.yaml if the repository is very large`,
        { cause, details: { ...details, timeoutMs } }
      );
    }
    if (cause.code === "ENOENT") {
      throw new GitNotFoundError("git was not found on PATH; install git (2.38 or newer) and try again", {
        cause,
        details
      });
    }
    throw new GitFailedError(`could not run git ${args[0] ?? ""}: ${cause.message}`, {
      cause,
      details
    });
  }
  if (consumeError !== null) throw consumeError;
  if (exitCode !== 0 && !(run.okExitCodes ?? []).includes(exitCode)) {
    throw gitFailure(args, exitCode, stderr.trim(), { ...details, exitCode, stderr: stderr.trim() });
  }
  return exitCode;
}
function userSafeDirectories() {
  safeDirectoryConfig ??= (async () => {
    const { system, global } = userConfigFiles();
    const values = [];
    for (const file of [...system, ...global]) {
      if (!existsSync(file)) continue;
      const res = await runGit({ cwd: "/" }, ["config", "--file", file, "--get-all", "safe.directory"], {
        okExitCodes: [1],
        withoutUserSafeDirectories: true
      }).catch(() => null);
      if (res?.exitCode === 0) values.push(...res.stdout.split("\n").filter((v) => v !== ""));
    }
    return values.map((v) => `safe.directory=${v}`);
  })();
  return safeDirectoryConfig;
}
function locationArgs(opts) {
  const out = [];
  if (opts.gitDir !== void 0) out.push(`--git-dir=${opts.gitDir}`);
  if (opts.workTree !== void 0) out.push(`--work-tree=${opts.workTree}`);
  return out;
}
function gitFailure(args, exitCode, stderr, details) {
  const what = `git ${args.slice(0, 3).join(" ")}`;
  if (/No space left on device|ENOSPC|Disk quota exceeded/i.test(stderr)) {
    return new DiskFullError(
      `${what} ran out of disk space; free space (or raise the quota) where the repository and the agentgate home live, then retry: nothing was recorded`,
      { details }
    );
  }
  const dubious = /detected dubious ownership in repository at '([^']*)'/.exec(stderr);
  if (dubious) {
    const dir = dubious[1] ?? String(details.cwd ?? "");
    return new UnsafeRepositoryOwnerError(
      `the repository at ${dir} is owned by another user, and git refuses to work in it; if you trust it, allow it with: git config --global --add safe.directory ${dir}`,
      { details: { ...details, repository: dir } }
    );
  }
  const lock = /Unable to create '([^']*\.lock)': File exists/.exec(stderr);
  if (lock) {
    return new IndexLockedError(
      `${lock[1]} exists: another git process is working in this repository, or one crashed; wait for it, or remove that file once no git process runs there, then retry`,
      {
        details: { ...details, lock: lock[1] }
      }
    );
  }
  if (/lazy fetching disabled|promisor remote|could not fetch .* from promisor/i.test(stderr)) {
    return new ObjectMissingError(
      `${what} needs objects this partial clone does not have, and agentgate never fetches them lazily; fetch them first (git fetch --refetch, or a full clone), then retry`,
      { details }
    );
  }
  const reason = stderr.split("\n").slice(-3).join(" ") || "no message";
  return new GitFailedError(`${what} failed (exit ${exitCode}): ${reason}`, { details });
}
function errnoText(cause) {
  const code2 = cause.code;
  return typeof code2 === "string" ? code2 : String(cause);
}
var spawned, safeDirectoryConfig;
var init_runner = __esm({
  "src/git/runner.ts"() {
    "use strict";
    init_config();
    init_errors();
    init_hardening();
    spawned = 0;
  }
});

// src/git/refs.ts
function assertRevisionSyntax(rev) {
  if (rev === "" || rev.startsWith("-") || /[\0\n\r]/.test(rev)) {
    throw new InvalidArgumentError(`${JSON.stringify(rev)} is not a usable revision name`, {
      details: { rev }
    });
  }
}
function zeroId(like) {
  return "0".repeat(like.length);
}
function assertRefName(ref) {
  if (ref !== "HEAD" && !/^refs\/[^\0\n\r ]+$/.test(ref)) {
    throw new InvalidArgumentError(`${JSON.stringify(ref)} is not a full ref name (HEAD or refs/...)`, {
      details: { ref }
    });
  }
}
async function resolveRevision(repo, rev, peel = "commit") {
  assertRevisionSyntax(rev);
  const wanted = peel === "none" ? rev : `${rev}^{${peel}}`;
  const { stdout } = await runGit(repo, ["cat-file", "--batch-check"], { input: `${wanted}
${rev}
` });
  const [peeled = "", plain = ""] = stdout.split("\n");
  const hit = /^([0-9a-f]+) ([a-z]+) \d+$/.exec(peeled);
  if (hit) return assertGitId(hit[1], "cat-file --batch-check");
  if (plain === `${rev} ambiguous`) {
    const candidates = (await runGit(repo, ["rev-parse", `--disambiguate=${rev}`])).stdout.split("\n").filter(Boolean);
    throw new AmbiguousIdError(
      `${rev} matches ${candidates.length} objects; give more characters of the id`,
      { details: { rev, candidates } }
    );
  }
  const other = /^[0-9a-f]+ ([a-z]+) \d+$/.exec(plain);
  const why = other ? `it is a ${other[1]}, not a ${peel}` : "no such revision";
  throw new RevisionNotFoundError(`revision ${rev} not found in this repository (${why})`, {
    details: { rev, peel, ...other ? { type: other[1] } : {} }
  });
}
async function getTree(repo, rev) {
  return resolveRevision(repo, rev, "tree");
}
async function isAncestor(repo, a, b) {
  assertRevisionSyntax(a);
  assertRevisionSyntax(b);
  const { exitCode } = await runGit(repo, ["merge-base", "--is-ancestor", a, b], { okExitCodes: [1] });
  return exitCode === 0;
}
async function objectExists(repo, id) {
  if (!isFullId(id))
    throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, { details: { id } });
  const { exitCode } = await runGit(repo, ["cat-file", "-e", id], { okExitCodes: [1] });
  return exitCode === 0;
}
async function readHead(repo) {
  const [symbolic, resolved] = await Promise.all([
    runGit(repo, ["symbolic-ref", "-q", "HEAD"], { okExitCodes: [1] }),
    runGit(repo, ["rev-parse", "-q", "--verify", "HEAD^{commit}"], { okExitCodes: [1] })
  ]);
  return {
    ref: symbolic.exitCode === 0 ? symbolic.stdout.trim() : null,
    sha: resolved.exitCode === 0 ? assertGitId(resolved.stdout.trim(), "rev-parse HEAD") : null
  };
}
async function readRef(repo, ref) {
  assertRefName(ref);
  const { stdout, exitCode } = await runGit(repo, ["rev-parse", "-q", "--verify", "--end-of-options", ref], {
    okExitCodes: [1]
  });
  return exitCode === 0 ? assertGitId(stdout.trim(), "rev-parse") : null;
}
async function updateRef(repo, ref, newSha, oldSha, opts = {}) {
  assertRefName(ref);
  for (const id of [newSha, oldSha ?? newSha]) {
    if (!isFullId(id))
      throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, {
        details: { ref, id }
      });
  }
  const expected = opts.force ? [] : [oldSha ?? zeroId(newSha)];
  const args = [
    "update-ref",
    "-m",
    opts.message ?? "agentgate: update ref",
    ...opts.noDeref ? ["--no-deref"] : [],
    ref,
    newSha,
    ...expected
  ];
  await withCompareAndSwap(repo, ref, oldSha, () => runGit(repo, args), opts.force === true);
}
async function updateRefs(repo, updates, opts = {}) {
  if (updates.length === 0) return;
  const records = [];
  for (const u of updates) {
    assertRefName(u.ref);
    for (const id of [u.newSha, u.oldSha ?? u.newSha]) {
      if (!isFullId(id))
        throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, {
          details: { ref: u.ref, id }
        });
    }
    const old = u.oldSha === void 0 ? "" : u.oldSha ?? zeroId(u.newSha);
    records.push(`update ${u.ref}`, u.newSha, old);
  }
  const args = [
    "update-ref",
    "-m",
    opts.message ?? "agentgate: update refs",
    ...opts.noDeref ? ["--no-deref"] : [],
    "--stdin",
    "-z"
  ];
  const guarded = updates.find((u) => u.oldSha !== void 0);
  const run = () => runGit(repo, args, { input: `${records.join("\0")}\0` });
  await withCompareAndSwap(
    repo,
    guarded?.ref ?? updates[0].ref,
    guarded?.oldSha ?? null,
    run,
    guarded === void 0
  );
}
async function withCompareAndSwap(repo, ref, expected, update, anyValue = false) {
  try {
    await update();
  } catch (cause) {
    if (!(cause instanceof GitFailedError) || anyValue) throw cause;
    const actual = await readRef(repo, ref);
    if (actual === expected) throw cause;
    throw new ConcurrentUpdateError(
      `${ref} moved to ${actual ?? "(deleted)"} while we expected ${expected ?? "(absent)"}; another process updated it, retry`,
      {
        cause,
        details: { ref, expected, actual }
      }
    );
  }
}
async function listRefs(repo, prefix) {
  assertRefName(prefix);
  const { stdout } = await runGit(repo, ["for-each-ref", "--format=%(objectname) %(refname)", prefix]);
  return stdout.split("\n").filter(Boolean).map((line) => {
    const space = line.indexOf(" ");
    return { sha: assertGitId(line.slice(0, space), "for-each-ref"), ref: line.slice(space + 1) };
  });
}
async function switchToBranch(repo, name, sha) {
  const ref = `refs/heads/${name}`;
  const valid = await runGit(repo, ["check-ref-format", ref], { okExitCodes: [1] });
  if (valid.exitCode !== 0 || name.startsWith("-") || name === "HEAD")
    throw new InvalidArgumentError(`${JSON.stringify(name)} is not a valid branch name`, {
      details: { name }
    });
  const [head, existing] = await Promise.all([readHead(repo), readRef(repo, ref)]);
  if (head.sha !== sha)
    throw new ConcurrentUpdateError(
      `HEAD is at ${head.sha ?? "(none)"}, not ${sha ?? "(none)"}; it moved meanwhile`,
      { details: { ref: "HEAD", expected: sha, actual: head.sha } }
    );
  if (head.ref === ref) return;
  if (existing !== null && existing !== sha) {
    throw new BranchExistsError(
      `branch ${name} already exists at ${existing.slice(0, 12)}, but HEAD is at ${sha === null ? "no commit yet" : sha.slice(0, 12)}; check it out first ("git switch ${name}") or choose another branch name`,
      {
        details: { branch: name, branchSha: existing, headSha: sha }
      }
    );
  }
  if (existing === null && sha !== null)
    await updateRef(repo, ref, sha, null, { message: "agentgate: branch for the run" });
  await runGit(repo, ["symbolic-ref", "-m", `agentgate: switch to ${name}`, "HEAD", ref]);
}
async function deleteRefs(repo, refs) {
  if (refs.length === 0) return;
  const records = [];
  for (const r of refs) {
    assertRefName(r.ref);
    if (!isFullId(r.oldSha))
      throw new InvalidArgumentError(`${JSON.stringify(r.oldSha)} is not a full object id`, {
        details: { ref: r.ref, id: r.oldSha }
      });
    records.push(`delete ${r.ref}`, r.oldSha);
  }
  await runGit(repo, ["update-ref", "-m", "agentgate: delete refs", "--stdin", "-z"], {
    input: `${records.join("\0")}\0`
  });
}
async function listRefRecords(repo, prefixes) {
  for (const p of prefixes) assertRefName(p);
  const res = await runGit(repo, [
    "for-each-ref",
    "--sort=-refname",
    `--format=${REF_RECORD_FORMAT}`,
    ...prefixes
  ]);
  return parseRefRecords(res.stdout);
}
var init_refs = __esm({
  "src/git/refs.ts"() {
    "use strict";
    init_errors();
    init_ids2();
    init_for_each_ref();
    init_runner();
  }
});

// src/git/commit-info.ts
async function getCommitInfo(repo, rev) {
  assertRevisionSyntax(rev);
  const { stdout } = await runGitBuffer(repo, ["cat-file", "--batch"], { input: `${rev}^{commit}
` });
  const eol = stdout.indexOf(10);
  const header = /^([0-9a-f]+) commit (\d+)$/.exec(stdout.subarray(0, Math.max(eol, 0)).toString("utf8"));
  if (!header) {
    await resolveRevision(repo, rev, "commit");
    throw new RevisionNotFoundError(`commit ${rev} could not be read`, { details: { rev } });
  }
  const size = Number(header[2]);
  const body = stdout.subarray(eol + 1, eol + 1 + size);
  if (body.length !== size)
    throw new GitOutputUnparseableError(`git cat-file returned a truncated commit for ${rev}`, {
      details: { args: ["cat-file", "--batch"], rev }
    });
  return parseCommitObject(assertGitId(header[1], "cat-file --batch"), body);
}
function parseCommitObject(sha, raw) {
  const text = decode2(raw);
  const split = text.indexOf("\n\n");
  const headerText = split < 0 ? text.replace(/\n$/, "") : text.slice(0, split);
  const message = split < 0 ? "" : text.slice(split + 2).replace(/\n$/, "");
  const parents = [];
  let author = null;
  for (const line of headerText.split("\n")) {
    if (line.startsWith(" ")) continue;
    const space = line.indexOf(" ");
    const key = space < 0 ? line : line.slice(0, space);
    const value = space < 0 ? "" : line.slice(space + 1);
    if (key === "parent") parents.push(assertGitId(value, "cat-file commit"));
    else if (key === "author" && author === null) author = parseIdent(value, sha);
  }
  if (author === null) throw badCommit(sha, "no author header");
  return { sha, message, author: author.ident, date: author.date, parents };
}
function decode2(raw) {
  const end = raw.indexOf("\n\n");
  const headers = raw.subarray(0, end < 0 ? raw.length : end).toString("latin1");
  const label = /(?:^|\n)encoding ([^\n]+)/.exec(headers)?.[1];
  if (label !== void 0) {
    try {
      return new TextDecoder(label.trim()).decode(raw);
    } catch {
    }
  }
  return raw.toString("utf8");
}
function parseIdent(value, sha) {
  const m = /^(.*) (-?\d+) ([+-])(\d{2})(\d{2})$/.exec(value);
  if (!m) throw badCommit(sha, `unreadable author line ${JSON.stringify(value)}`);
  const [, ident, epoch, sign, hh, mm] = m;
  const offsetMinutes = (sign === "-" ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const local = new Date((Number(epoch) + offsetMinutes * 60) * 1e3);
  if (Number.isNaN(local.getTime())) throw badCommit(sha, `author date out of range: ${epoch}`);
  const iso = local.toISOString().replace(/\.\d{3}Z$/, "");
  return { ident, date: `${iso}${sign === "-" && offsetMinutes !== 0 ? "-" : "+"}${hh}:${mm}` };
}
function badCommit(sha, reason) {
  return new GitOutputUnparseableError(`commit ${sha} is malformed: ${reason}`, {
    details: { args: ["cat-file", "commit", sha], reason }
  });
}
var init_commit_info = __esm({
  "src/git/commit-info.ts"() {
    "use strict";
    init_errors();
    init_ids2();
    init_refs();
    init_runner();
  }
});

// src/fs/git-locks.ts
import { readdir as readdir2, readFile as readFile3, readlink, rm as rm5, stat as stat2 } from "node:fs/promises";
import { isAbsolute as isAbsolute2, join as join6 } from "node:path";
async function removeOrphanedGitLocks(o) {
  if (!Number.isFinite(o.ownerSince)) return [];
  const common = await commonDir(o.gitDir);
  const refLocks = (await readdir2(join6(common, "refs"), { recursive: true }).catch(() => [])).filter((name) => name.endsWith(".lock")).map((name) => join6(common, "refs", name));
  const candidates = [
    `${o.indexFile ?? join6(o.gitDir, "index")}.lock`,
    join6(o.gitDir, "HEAD.lock"),
    join6(common, "packed-refs.lock"),
    ...refLocks
  ];
  const removed = [];
  for (const path of candidates) {
    const info = await stat2(path).catch(() => null);
    if (info?.isFile() && info.mtimeMs >= o.ownerSince - 1e3) {
      await rm5(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}
async function removeLockOlderThan(path, olderThanMs) {
  const info = await stat2(path).catch(() => null);
  if (info === null || Date.now() - info.mtimeMs < olderThanMs) return false;
  await rm5(path, { force: true });
  return true;
}
async function commonDir(gitDir) {
  const named = (await readFile3(join6(gitDir, "commondir"), "utf8").catch(() => "")).trim();
  if (named === "") return gitDir;
  return isAbsolute2(named) ? named : join6(gitDir, named);
}
async function removeAbandonedLock(path) {
  if (await stat2(path).catch(() => null) === null) return "absent";
  for (const round of [0, 1]) {
    if (round === 1) await new Promise((resolve13) => setTimeout(resolve13, LOCK_SETTLE_MS));
    if (await stat2(path).catch(() => null) === null) return "absent";
    if (await openedBy(path) !== 0) return "held";
  }
  await rm5(path, { force: true });
  return "removed";
}
async function openedBy(path) {
  const pids = await readdir2("/proc").catch(() => null);
  if (pids === null || await stat2("/proc/self/fd").catch(() => null) === null) return -1;
  let holders = 0;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const fds = await readdir2(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      if (await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "") === path) {
        holders += 1;
        break;
      }
    }
  }
  return holders;
}
var LOCK_SETTLE_MS;
var init_git_locks = __esm({
  "src/fs/git-locks.ts"() {
    "use strict";
    LOCK_SETTLE_MS = 300;
  }
});

// src/git/repo.ts
import { appendFile as appendFile2, lstat, mkdir as mkdir3, readFile as readFile4, realpath, stat as stat3 } from "node:fs/promises";
import { homedir as homedir2 } from "node:os";
import { dirname as dirname3, isAbsolute as isAbsolute3, join as join7, relative, resolve as resolve2, sep } from "node:path";
async function openRepo(dir, opts = {}) {
  const real = await resolveWorkspaceDir(dir);
  const base = { cwd: real, ...opts };
  let out;
  try {
    out = (await runGit(base, [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-dir",
      "--git-common-dir"
    ])).stdout;
  } catch (cause) {
    if (cause instanceof GitFailedError && /not a git repository/i.test(String(cause.details.stderr))) {
      throw new NotARepositoryError(
        `${real} is not inside a git repository; run "git init" there or give the path of a repository`,
        { cause, details: { workspace: real } }
      );
    }
    throw cause;
  }
  const [topLevel, gitDir, commonDir2] = out.split("\n");
  if (!topLevel || !gitDir || !commonDir2) {
    throw new NotARepositoryError(
      `${real} has no work tree (bare repository?); give the path of a checked-out repository`,
      { details: { workspace: real } }
    );
  }
  assertSafeWorkspace(topLevel);
  if (!isInside(topLevel, real)) {
    throw new UnsafeWorkspaceError(
      `git places the work tree of ${real} at ${topLevel} (core.worktree?); refusing to snapshot outside the workspace`,
      { details: { workspace: real, topLevel } }
    );
  }
  await assertOwnWorkTree(real, topLevel, gitDir);
  const config2 = neutraliseDrivers(
    await driverKeys(base, [join7(commonDir2, "config"), join7(gitDir, "config.worktree")])
  );
  return { ...base, cwd: topLevel, topLevel, gitDir, config: config2 };
}
async function assertOwnWorkTree(real, topLevel, gitDir) {
  const owner = await dotGitOwner(real);
  const refuse = (why) => {
    throw new UnsafeWorkspaceError(`${why}; refusing to work outside the workspace ${real}`, {
      details: { workspace: real, topLevel, gitDir }
    });
  };
  if (owner === null)
    return refuse(`no .git was found from ${real} upwards, yet git found the repository at ${gitDir}`);
  if (owner.dir !== topLevel)
    return refuse(`the repository in ${owner.dir} puts its work tree at ${topLevel} (core.worktree)`);
  if (!owner.isFile) return;
  const realGitDir = await realpath(gitDir);
  const named = await readPointer(join7(realGitDir, "gitdir"));
  if (named !== null && await realpathOrNull(resolve2(realGitDir, named)) === join7(owner.dir, ".git"))
    return;
  const worktree = await configValue(join7(realGitDir, "config"), "core.worktree");
  if (worktree !== null && await realpathOrNull(resolve2(realGitDir, worktree)) === owner.dir) return;
  if (realGitDir.split(sep).includes(".git")) {
    refuse(`${join7(owner.dir, ".git")} points into another repository's git dir (${realGitDir})`);
  }
}
async function dotGitOwner(dir) {
  for (let at = dir; ; at = dirname3(at)) {
    const info = await lstat(join7(at, ".git")).catch(() => null);
    if (info !== null) return { dir: at, isFile: info.isFile() };
    if (dirname3(at) === at) return null;
  }
}
async function driverKeys(base, files) {
  const keys = [];
  const seen = /* @__PURE__ */ new Set();
  const queue = [...files];
  while (queue.length > 0 && seen.size < 64) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    if ((await stat3(file).catch(() => null))?.isFile() !== true) continue;
    const res = await runGit(
      base,
      ["config", "--file", file, "-z", "--get-regexp", DRIVER_AND_INCLUDE_PATTERN],
      { okExitCodes: [1] }
    );
    for (const { key, value } of parseConfigEntries(res.stdout)) {
      if (!/^include/i.test(key)) keys.push(key);
      else if (value !== "") queue.push(includedFile(value, file));
    }
  }
  return keys;
}
function includedFile(path, from) {
  if (path === "~" || path.startsWith("~/")) return join7(process.env.HOME ?? homedir2(), path.slice(1));
  return resolve2(dirname3(from), path);
}
async function configValue(file, key) {
  if ((await stat3(file).catch(() => null))?.isFile() !== true) return null;
  const res = await runGit({ cwd: dirname3(file) }, ["config", "--file", file, "--get", key], {
    okExitCodes: [1]
  });
  return res.exitCode === 0 ? res.stdout.trim() : null;
}
async function readPointer(file) {
  const text = await readFile4(file, "utf8").catch(() => null);
  if (text === null) return null;
  return text.replace(/^gitdir: /, "").trim() || null;
}
async function realpathOrNull(path) {
  return realpath(path).catch(() => null);
}
async function initRepo(dir, branch, opts = {}) {
  const real = await resolveWorkspaceDir(dir);
  assertSafeWorkspace(real);
  await runGit({ cwd: real, ...opts }, ["init", "--quiet", `--initial-branch=${branch}`]);
  return openRepo(real, opts);
}
async function excludeNestedRepositories(repo) {
  const listed = await runGit(repo, ["ls-files", "-z", "--others", "--exclude-standard"]);
  const nested = listed.stdout.split("\0").filter((p) => p.endsWith("/"));
  const found = [];
  for (const dir of nested)
    if (await lstat(join7(repo.topLevel, dir, ".git")).catch(() => null)) found.push(dir.replace(/\/$/, ""));
  if (found.length > 0) {
    const lines = found.map((p) => `/${p.replace(/([*?[\\!#])/g, "\\$1")}/`).join("\n");
    await mkdir3(join7(repo.gitDir, "info"), { recursive: true });
    await appendFile2(
      join7(repo.gitDir, "info", "exclude"),
      `
# nested repositories, left out by agentgate-snapshot before --init
${lines}
`
    );
  }
  return found;
}
async function assertNoLfs(repo) {
  for (const file of [
    join7(repo.topLevel, ".gitattributes"),
    join7(await commonDir(repo.gitDir), "info", "attributes")
  ]) {
    const text = await readFile4(file, "utf8").catch(() => "");
    if (/(^|\s)filter=lfs(\s|$)/m.test(text)) {
      throw new LfsUnsupportedError(
        `${file} sends files through Git LFS, which agentgate does not run; snapshot this repository without LFS-tracked changes, or take the snapshot with your own git (see "Git LFS" in the README)`,
        {
          details: { workspace: repo.topLevel, attributes: file }
        }
      );
    }
  }
}
async function resolveWorkspaceDir(dir) {
  const abs = resolve2(dir);
  try {
    const real = await realpath(abs);
    if ((await stat3(real)).isDirectory()) return real;
  } catch (cause) {
    throw new WorkspaceNotFoundError(
      `workspace ${abs} does not exist; give the path of an existing directory`,
      { cause, details: { workspace: abs } }
    );
  }
  throw new WorkspaceNotFoundError(`workspace ${abs} is not a directory; give the path of a directory`, {
    details: { workspace: abs }
  });
}
function assertSafeWorkspace(dir) {
  const home = process.env.HOME ? resolve2(process.env.HOME) : homedir2();
  if (dir === sep || dir === resolve2("/") || dir === home || dir === homedir2()) {
    throw new UnsafeWorkspaceError(
      `refusing to use ${dir} as a workspace: it is the filesystem root or a home directory; give the path of a project directory`,
      { details: { workspace: dir } }
    );
  }
}
function isInside(parent, child) {
  const rel = relative(parent, child);
  return rel === "" || !rel.startsWith("..") && !isAbsolute3(rel);
}
var init_repo = __esm({
  "src/git/repo.ts"() {
    "use strict";
    init_errors();
    init_git_locks();
    init_hardening();
    init_runner();
  }
});

// src/git/parsers/ls-files-unmerged.ts
function parseUnmergedPaths(output) {
  const text = typeof output === "string" ? output : output.toString("utf8");
  const paths = [];
  for (const record2 of text.split("\0")) {
    if (record2 === "") continue;
    const tab = record2.indexOf("	");
    if (tab < 0 || !UNMERGED_HEAD.test(record2.slice(0, tab))) {
      throw new GitOutputUnparseableError(
        `unexpected ls-files -u record ${JSON.stringify(record2.slice(0, 120))}`,
        { details: { record: record2.slice(0, 200) } }
      );
    }
    const path = record2.slice(tab + 1);
    if (paths.at(-1) !== path) paths.push(path);
  }
  return paths;
}
var UNMERGED_HEAD;
var init_ls_files_unmerged = __esm({
  "src/git/parsers/ls-files-unmerged.ts"() {
    "use strict";
    init_ids();
    init_errors();
    UNMERGED_HEAD = new RegExp(`^[0-7]{6} ${OBJECT_ID_SOURCE} [1-3]$`);
  }
});

// src/git/parsers/status.ts
function parseStatusV2(output) {
  const text = typeof output === "string" ? output : output.toString("utf8");
  const records = text.split("\0");
  if (records.at(-1) === "") records.pop();
  const report3 = {
    oid: null,
    head: null,
    upstream: null,
    ahead: null,
    behind: null,
    entries: []
  };
  for (let i = 0; i < records.length; i++) {
    const record2 = records[i];
    const kind = record2.slice(0, 2);
    if (kind === "# ") readHeader(report3, record2);
    else if (kind === "? ")
      report3.entries.push({ kind: "untracked", path: nonEmpty(record2.slice(2), record2) });
    else if (kind === "! ") report3.entries.push({ kind: "ignored", path: nonEmpty(record2.slice(2), record2) });
    else if (kind === "1 " || kind === "u ") {
      const [fields, path] = splitFields(record2, FIELDS_BEFORE_PATH[kind[0]]);
      const entry = { xy: fields[1], submodule: fields[2], path };
      report3.entries.push(kind === "1 " ? { kind: "ordinary", ...entry } : { kind: "unmerged", ...entry });
    } else if (kind === "2 ") {
      const [fields, path] = splitFields(record2, FIELDS_BEFORE_PATH["2"]);
      const origPath = records[++i];
      if (origPath === void 0 || origPath === "")
        throw malformed("rename without its original path", record2);
      report3.entries.push({
        kind: "renamed",
        xy: fields[1],
        submodule: fields[2],
        score: fields[8],
        path,
        origPath
      });
    } else throw malformed("unknown record", record2);
  }
  return report3;
}
function readHeader(report3, record2) {
  const space = record2.indexOf(" ", 2);
  const key = space < 0 ? record2.slice(2) : record2.slice(2, space);
  const value = space < 0 ? "" : record2.slice(space + 1);
  if (key === "branch.oid") report3.oid = value === "(initial)" ? null : hexId(value, record2);
  else if (key === "branch.head")
    report3.head = value === "(detached)" || value === "(null)" ? null : nonEmpty(value, record2);
  else if (key === "branch.upstream") report3.upstream = nonEmpty(value, record2);
  else if (key === "branch.ab") {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (!m) throw malformed("bad ahead/behind header", record2);
    report3.ahead = Number(m[1]);
    report3.behind = Number(m[2]);
  }
}
function splitFields(record2, count) {
  const fields = [];
  let start = 0;
  for (let n = 0; n < count; n++) {
    const space = record2.indexOf(" ", start);
    if (space < 0) throw malformed(`expected ${count} fields before the path`, record2);
    fields.push(record2.slice(start, space));
    start = space + 1;
  }
  if (!/^[.A-Z]{2}$/.test(fields[1])) throw malformed("bad XY code", record2);
  return [fields, nonEmpty(record2.slice(start), record2)];
}
function hexId(value, record2) {
  if (!OBJECT_ID_PATTERN.test(value)) throw malformed("bad object id", record2);
  return value;
}
function nonEmpty(value, record2) {
  if (value === "") throw malformed("empty field", record2);
  return value;
}
function malformed(reason, record2) {
  return new GitOutputUnparseableError(
    `unexpected output from git status (${reason}): ${JSON.stringify(record2.slice(0, 120))}`,
    {
      details: { args: ["status", "--porcelain=v2", "-z"], reason, record: record2.slice(0, 200) }
    }
  );
}
var FIELDS_BEFORE_PATH;
var init_status = __esm({
  "src/git/parsers/status.ts"() {
    "use strict";
    init_ids();
    init_errors();
    FIELDS_BEFORE_PATH = { "1": 8, "2": 9, u: 10 };
  }
});

// src/git/state.ts
import { access, readFile as readFile5 } from "node:fs/promises";
import { join as join8, sep as sep2 } from "node:path";
async function getRepoState(repo, ignore = []) {
  const [report3, operation] = await Promise.all([readStatus(repo), detectOperation(repo.gitDir)]);
  const headState = report3.oid === null ? "unborn" : report3.head === null ? "detached" : "branch";
  return {
    topLevel: repo.topLevel,
    headState,
    branch: report3.head,
    sha: report3.oid,
    isDirty: hasChangesOutside(report3.entries, ignore),
    unmergedPaths: report3.entries.filter((e) => e.kind === "unmerged").map((e) => e.path),
    operation
  };
}
async function getRepoHead(repo) {
  const [head, unmerged, operation] = await Promise.all([
    readHead(repo),
    runGitBuffer(repo, ["ls-files", "-u", "-z"]),
    detectOperation(repo.gitDir)
  ]);
  const branchRef = head.ref?.startsWith("refs/heads/") ? head.ref : null;
  const headState = head.sha === null ? "unborn" : branchRef === null ? "detached" : "branch";
  const branch = branchRef === null ? null : branchRef.slice("refs/heads/".length);
  return {
    headState,
    ref: branchRef,
    branch,
    sha: head.sha,
    unmergedPaths: parseUnmergedPaths(unmerged.stdout),
    operation
  };
}
function hasChangesOutside(entries, excludes) {
  const prefixes = excludes.map((x) => x.split(sep2).join("/").replace(/\/+$/, ""));
  const excluded = (path) => prefixes.some((x) => path === x || path.startsWith(`${x}/`));
  return entries.some((e) => e.kind !== "ignored" && !excluded(e.path));
}
async function readStatus(opts) {
  const args = [
    "--no-optional-locks",
    "status",
    "--porcelain=v2",
    "-z",
    "--branch",
    "--untracked-files=normal",
    "--ignore-submodules=dirty"
  ];
  return parseStatusV2((await runGitBuffer(opts, args)).stdout);
}
async function detectOperation(gitDir) {
  const names = [
    "rebase-merge",
    "rebase-apply",
    "rebase-apply/applying",
    "MERGE_HEAD",
    "CHERRY_PICK_HEAD",
    "REVERT_HEAD",
    "BISECT_LOG"
  ];
  const found = await Promise.all(names.map((n) => exists(join8(gitDir, n))));
  const has = (n) => found[names.indexOf(n)] === true;
  if (has("rebase-apply/applying")) return "am";
  if (has("rebase-merge") || has("rebase-apply")) return "rebase";
  if (has("MERGE_HEAD")) return "merge";
  if (has("CHERRY_PICK_HEAD")) return "cherry-pick";
  if (has("REVERT_HEAD")) return "revert";
  const sequenced = await sequencerOperation(gitDir);
  if (sequenced !== null) return sequenced;
  return has("BISECT_LOG") ? "bisect" : null;
}
async function sequencerOperation(gitDir) {
  let todo;
  try {
    todo = await readFile5(join8(gitDir, "sequencer", "todo"), "utf8");
  } catch {
    return null;
  }
  const first = todo.split("\n").find((l) => l.trim() !== "" && !l.startsWith("#"));
  if (first === void 0) return null;
  return /^revert\s/.test(first) ? "revert" : "cherry-pick";
}
async function exists(path) {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
var init_state = __esm({
  "src/git/state.ts"() {
    "use strict";
    init_ls_files_unmerged();
    init_status();
    init_refs();
    init_runner();
  }
});

// src/git/cherry-pick.ts
import { mkdtemp as mkdtemp2, readFile as readFile6, rm as rm6, writeFile as writeFile2 } from "node:fs/promises";
import { tmpdir as tmpdir2 } from "node:os";
import { basename as basename2, join as join9 } from "node:path";
async function cherryPick2(repo, rev, opts = {}) {
  const source = await getCommitInfo(repo, rev);
  const head = await readHead(repo);
  const ignore = opts.ignore ?? [];
  if (opts.onto === void 0) return pickInWorkspace(repo, source, ignore);
  assertRevisionSyntax(opts.onto);
  const ontoRef = opts.onto.startsWith("refs/heads/") ? opts.onto : `refs/heads/${opts.onto}`;
  if (ontoRef === head.ref) return pickInWorkspace(repo, source, ignore);
  return pickInWorktree(repo, source, ontoRef);
}
async function pickInWorkspace(repo, source, ignore) {
  const state = await getRepoState(repo, ignore);
  if (state.operation !== null) {
    throw new OperationInProgressError(
      `a ${state.operation} is in progress in ${repo.topLevel}; finish or abort it first`,
      { details: { operation: state.operation } }
    );
  }
  const before2 = state.sha;
  if (before2 === null)
    throw new RevisionNotFoundError(`branch ${state.branch ?? "HEAD"} has no commits to cherry-pick onto`, {
      details: { rev: "HEAD" }
    });
  if (state.isDirty) {
    throw new DirtyWorkspaceError(
      `${repo.topLevel} has uncommitted or untracked changes; commit or stash them, or cherry-pick --onto another branch`,
      { details: { workspace: repo.topLevel } }
    );
  }
  const origHead = join9(repo.gitDir, "ORIG_HEAD");
  const savedOrigHead = await readFile6(origHead).catch(() => null);
  const abort = async () => {
    await runGit(pickOptions(repo), ["cherry-pick", "--abort"]);
    await (savedOrigHead === null ? rm6(origHead, { force: true }) : writeFile2(origHead, savedOrigHead));
    await assertRestored(repo, before2);
  };
  let files;
  try {
    files = await runPick(repo, source);
  } catch (error2) {
    if (await detectOperation(repo.gitDir) === "cherry-pick") await abort();
    throw error2;
  }
  if (files === null) return getCommitInfo(repo, "HEAD");
  await abort();
  throw conflict(source, state.branch ?? "HEAD", files);
}
async function pickInWorktree(repo, source, ontoRef) {
  const old = await resolveRevision(repo, ontoRef);
  await assertNotCheckedOut(repo, ontoRef);
  const dir = await mkdtemp2(join9(tmpdir2(), "agentgate-pick-"));
  if (isInside(repo.topLevel, dir)) {
    await rm6(dir, { recursive: true, force: true });
    throw new InvalidArgumentError(
      `the temp directory ${dir} is inside the workspace; set TMPDIR elsewhere`,
      { details: { tmpdir: dir } }
    );
  }
  const path = join9(dir, basename2(dir));
  let failure3 = null;
  try {
    await runGit(repo, ["worktree", "add", "--detach", "--quiet", path, old]);
    const worktree = worktreeOptions(repo, path);
    const files = await runPick(worktree, source);
    if (files !== null) throw conflict(source, ontoRef.slice("refs/heads/".length), files);
    const sha = await resolveRevision(worktree, "HEAD");
    await updateRef(repo, ontoRef, sha, old, { message: `agentgate: cherry-pick ${source.sha}` });
    return await getCommitInfo(repo, sha);
  } catch (error2) {
    failure3 = error2;
    throw error2;
  } finally {
    await removeWorktree(repo, dir, path, failure3 !== null);
  }
}
async function runPick(opts, source) {
  const mainline = source.parents.length > 1 ? ["-m", "1"] : [];
  const args = [
    "cherry-pick",
    "--no-edit",
    "--allow-empty",
    "--keep-redundant-commits",
    "--no-rerere-autoupdate",
    ...mainline,
    source.sha
  ];
  try {
    await runGit(pickOptions(opts), args);
    return null;
  } catch (error2) {
    if (!(error2 instanceof GitFailedError) || error2.details.exitCode !== 1) throw error2;
    const report3 = await readStatus(opts);
    const files = report3.entries.filter((e) => e.kind === "unmerged").map((e) => e.path);
    if (files.length === 0) throw error2;
    return files;
  }
}
function worktreeOptions(repo, path) {
  const { identity, timeoutMs, config: config2, binary } = repo;
  return {
    cwd: path,
    ...identity && { identity },
    ...timeoutMs !== void 0 && { timeoutMs },
    ...config2 && { config: config2 },
    ...binary !== void 0 && { binary }
  };
}
function pickOptions(opts) {
  return { ...opts, config: [...opts.config ?? [], "rerere.enabled=false"] };
}
async function assertRestored(repo, sha) {
  const after2 = await getRepoState(repo);
  if (after2.sha !== sha || after2.isDirty || after2.operation !== null) {
    throw new GitFailedError(
      `cherry-pick --abort did not restore ${repo.topLevel} (HEAD ${after2.sha ?? "none"}, expected ${sha}); inspect it by hand`,
      {
        details: {
          args: ["cherry-pick", "--abort"],
          expected: sha,
          actual: after2.sha,
          operation: after2.operation
        }
      }
    );
  }
}
async function assertNotCheckedOut(repo, ref) {
  const { stdout } = await runGit(repo, ["worktree", "list", "--porcelain", "-z"]);
  const records = stdout.split("\0");
  const at = records.indexOf(`branch ${ref}`);
  if (at >= 0) {
    const worktree = records.slice(0, at).reverse().find((r) => r.startsWith("worktree "))?.slice("worktree ".length);
    throw new InvalidArgumentError(
      `${ref} is checked out in the worktree ${worktree ?? "(unknown)"}; cherry-pick there instead`,
      { details: { ref, worktree } }
    );
  }
}
async function removeWorktree(repo, dir, path, quiet) {
  try {
    const admin = join9(await commonDir(repo.gitDir), "worktrees", basename2(path));
    await runGit(repo, ["worktree", "remove", "--force", "--force", path]).catch(() => void 0);
    await rm6(dir, { recursive: true, force: true });
    await rm6(admin, { recursive: true, force: true });
  } catch (error2) {
    if (!quiet) throw error2;
  }
}
function conflict(source, onto, files) {
  return new CherryPickConflictError(
    `cherry-picking ${source.sha.slice(0, 12)} onto ${onto} conflicts in ${files.length} file(s): ${files.slice(0, 5).join(", ")}; nothing was changed`,
    {
      details: { sha: source.sha, onto, files }
    }
  );
}
var init_cherry_pick = __esm({
  "src/git/cherry-pick.ts"() {
    "use strict";
    init_errors();
    init_commit_info();
    init_refs();
    init_git_locks();
    init_repo();
    init_runner();
    init_state();
  }
});

// src/fs/path-bytes.ts
function decodeBytes(buf) {
  const plain = buf.toString("utf8");
  if (!plain.includes("\uFFFD") || Buffer.from(plain, "utf8").equals(buf)) return plain;
  let out = "";
  let i = 0;
  while (i < buf.length) {
    const len = validSequenceLength(buf, i);
    if (len === 0) {
      out += String.fromCharCode(56320 + buf[i]);
      i += 1;
    } else {
      out += buf.toString("utf8", i, i + len);
      i += len;
    }
  }
  return out;
}
function encodeBytes(text) {
  if (!hasEscapedBytes(text)) return Buffer.from(text, "utf8");
  const parts = [];
  let run = "";
  for (const ch of text) {
    const code2 = ch.charCodeAt(0);
    if (ch.length === 1 && code2 >= LOW && code2 <= HIGH) {
      if (run !== "") parts.push(Buffer.from(run, "utf8"));
      run = "";
      parts.push(Buffer.from([code2 - 56320]));
    } else {
      run += ch;
    }
  }
  if (run !== "") parts.push(Buffer.from(run, "utf8"));
  return Buffer.concat(parts);
}
function hasEscapedBytes(text) {
  return /[\udc80-\udcff]/.test(text) && /(?<![\ud800-\udbff])[\udc80-\udcff]/.test(text);
}
function fsPath(path) {
  return hasEscapedBytes(path) ? encodeBytes(path) : path;
}
function validSequenceLength(buf, i) {
  const b0 = buf[i];
  if (b0 < 128) return 1;
  const cont = (k) => i + k < buf.length && (buf[i + k] & 192) === 128;
  if (b0 >= 194 && b0 <= 223) return cont(1) ? 2 : 0;
  if (b0 >= 224 && b0 <= 239) {
    if (!cont(1) || !cont(2)) return 0;
    const b1 = buf[i + 1];
    if (b0 === 224 && b1 < 160) return 0;
    if (b0 === 237 && b1 >= 160) return 0;
    return 3;
  }
  if (b0 >= 240 && b0 <= 244) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const b1 = buf[i + 1];
    if (b0 === 240 && b1 < 144) return 0;
    if (b0 === 244 && b1 >= 144) return 0;
    return 4;
  }
  return 0;
}
var LOW, HIGH;
var init_path_bytes = __esm({
  "src/fs/path-bytes.ts"() {
    "use strict";
    LOW = 56448;
    HIGH = 56575;
  }
});

// src/git/empty-tree.ts
async function emptyTreeId(repo) {
  const key = `${repo.gitDir ?? ""}\0${repo.cwd}`;
  let id = cache.get(key);
  if (id === void 0) {
    id = runGit(repo, ["hash-object", "-t", "tree", "--stdin"], { input: "" }).then((r) => r.stdout.trim());
    cache.set(key, id);
    id.catch(() => cache.delete(key));
  }
  return id;
}
var cache;
var init_empty_tree = __esm({
  "src/git/empty-tree.ts"() {
    "use strict";
    init_runner();
    cache = /* @__PURE__ */ new Map();
  }
});

// src/git/parsers/batch-check.ts
function parseBatchCheck(names, output) {
  const lines = output.split("\n");
  if (lines.pop() !== "" || lines.length !== names.length) {
    throw malformed2(`${names.length} names asked, ${lines.length} answer lines`);
  }
  return names.map((name, i) => answer(name, lines[i]));
}
function answer(name, line) {
  if (line === `${name} missing`) return { name, found: false, reason: "missing" };
  if (line === `${name} ambiguous`) return { name, found: false, reason: "ambiguous" };
  const m = FOUND.exec(line);
  if (m === null) throw malformed2(`answer for ${JSON.stringify(name)}: ${JSON.stringify(line)}`);
  return { name, found: true, id: m[1], type: m[2], size: Number(m[3]) };
}
function malformed2(reason) {
  return new GitOutputUnparseableError(`unexpected output from git cat-file --batch-check: ${reason}`, {
    details: { parser: "cat-file --batch-check", reason }
  });
}
var FOUND;
var init_batch_check = __esm({
  "src/git/parsers/batch-check.ts"() {
    "use strict";
    init_ids();
    init_errors();
    FOUND = new RegExp(`^(${OBJECT_ID_SOURCE}) ([a-z]+) ([0-9]+)$`);
  }
});

// src/git/parsers/z-tokens.ts
var ZTokens;
var init_z_tokens = __esm({
  "src/git/parsers/z-tokens.ts"() {
    "use strict";
    init_errors();
    ZTokens = class {
      constructor(output, what) {
        this.what = what;
        this.fields = output === "" ? [] : output.split("\0");
        if (this.fields.length > 0 && this.fields.pop() !== "")
          throw this.malformed("output does not end with NUL");
      }
      what;
      fields;
      index = 0;
      /** True when every field has been consumed. */
      get done() {
        return this.index >= this.fields.length;
      }
      /** The next field without consuming it, or undefined at the end. */
      peek() {
        return this.fields[this.index];
      }
      /** Consumes and returns the next field; a missing field means the output was cut short. */
      next() {
        const field = this.fields[this.index];
        if (field === void 0) throw this.malformed("output ends in the middle of a record");
        this.index += 1;
        return field;
      }
      /** The error to throw when git's output does not have the shape we parse. */
      malformed(reason) {
        return new GitOutputUnparseableError(
          `unexpected output from git ${this.what}: ${reason}; please report this with your git version`,
          {
            details: { parser: this.what, field: this.index, reason }
          }
        );
      }
    };
  }
});

// src/git/parsers/diff-raw.ts
function atRawRecord(tokens) {
  return tokens.peek()?.startsWith(":") ?? false;
}
function readRawRecord(tokens) {
  const header = tokens.next();
  const m = HEADER.exec(header);
  if (m === null) throw tokens.malformed(`not a raw record header: ${JSON.stringify(header)}`);
  const [, srcMode, dstMode, srcId, dstId, letter, digits] = m;
  const twoPaths = letter === "R" || letter === "C";
  const first = tokens.next();
  const path = twoPaths ? tokens.next() : first;
  const score = digits === "" ? null : Number(digits);
  return { srcMode, dstMode, srcId, dstId, status: letter, score, path, oldPath: twoPaths ? first : null };
}
var HEADER;
var init_diff_raw = __esm({
  "src/git/parsers/diff-raw.ts"() {
    "use strict";
    init_z_tokens();
    HEADER = /^:([0-7]{6}) ([0-7]{6}) ([0-9a-f]{4,64}) ([0-9a-f]{4,64}) ([ACDMRT])([0-9]{0,3})$/;
  }
});

// src/git/parsers/diff-numstat.ts
function readNumstatRecord(tokens) {
  const field = tokens.next();
  const m = COUNTS.exec(field);
  if (m === null) throw tokens.malformed(`not a numstat record: ${JSON.stringify(field)}`);
  const binary = m[3] === "-";
  const insertions = binary ? 0 : Number(m[1]);
  const deletions = binary ? 0 : Number(m[2]);
  const rest = field.slice(m[0].length);
  if (rest !== "") return { insertions, deletions, binary, path: rest, oldPath: null };
  const oldPath = tokens.next();
  return { insertions, deletions, binary, path: tokens.next(), oldPath };
}
var COUNTS;
var init_diff_numstat = __esm({
  "src/git/parsers/diff-numstat.ts"() {
    "use strict";
    init_z_tokens();
    COUNTS = /^(?:([0-9]+)\t([0-9]+)|(-)\t-)\t/;
  }
});

// src/git/parsers/diff-changes.ts
function parseDiffChanges(output) {
  const tokens = new ZTokens(output, "diff-tree --raw --numstat");
  const raw = [];
  while (atRawRecord(tokens)) raw.push(readRawRecord(tokens));
  const changes = [];
  for (const entry of raw) {
    if (tokens.done)
      throw tokens.malformed(`${raw.length} raw records but only ${changes.length} numstat records`);
    changes.push(combine(entry, readNumstatRecord(tokens), tokens));
  }
  if (!tokens.done) throw tokens.malformed(`more numstat records than the ${raw.length} raw records`);
  return changes;
}
function combine(raw, num, tokens) {
  if (raw.path !== num.path || raw.oldPath !== num.oldPath) {
    throw tokens.malformed(
      `raw record for ${JSON.stringify(raw.path)} paired with numstat record for ${JSON.stringify(num.path)}`
    );
  }
  return {
    path: raw.path,
    oldPath: raw.oldPath,
    status: STATUS[raw.status],
    insertions: num.insertions,
    deletions: num.deletions,
    binary: num.binary
  };
}
var STATUS;
var init_diff_changes = __esm({
  "src/git/parsers/diff-changes.ts"() {
    "use strict";
    init_diff_raw();
    init_diff_numstat();
    init_z_tokens();
    STATUS = {
      A: "added",
      C: "copied",
      D: "deleted",
      M: "modified",
      R: "renamed",
      T: "typechange"
    };
  }
});

// src/git/diff-stats.ts
async function resolveDiffTrees(repo, from, to) {
  const revs = (from === null ? [to] : [from, to]).map(checkRevision);
  const names = revs.flatMap((rev) => [`${rev}^{tree}`, rev]);
  const out = await runGitBuffer(repo, ["cat-file", "--batch-check"], {
    input: names.map((n) => `${n}
`).join("")
  });
  const answers = parseBatchCheck(names, out.stdout.toString("utf8"));
  const ids = revs.map((rev, i) => {
    const [tree, bare] = [answers[2 * i], answers[2 * i + 1]];
    if (tree?.found) return tree.id;
    if (bare !== void 0 && !bare.found && bare.reason === "ambiguous") {
      throw new AmbiguousIdError(
        `revision "${rev}" is an abbreviated id that matches several objects; give more digits`,
        { details: { revision: rev } }
      );
    }
    throw new RevisionNotFoundError(`revision "${rev}" does not name a commit or tree in this repository`, {
      details: { revision: rev }
    });
  });
  return from === null ? { from: await emptyTreeId(repo), to: ids[0] } : { from: ids[0], to: ids[1] };
}
function checkRevision(rev) {
  if (rev === "" || /[\n\r\0]/.test(rev)) {
    throw new RevisionNotFoundError(`revision ${JSON.stringify(rev)} is empty or contains a line break`, {
      details: { revision: rev }
    });
  }
  return rev;
}
async function getDiffStats(repo, from, to) {
  return treeDiffStats(repo, await resolveDiffTrees(repo, from, to));
}
async function treeDiffStats(repo, trees) {
  if (trees.from === trees.to) return { filesChanged: 0, insertions: 0, deletions: 0, files: [] };
  const out = await runGitBuffer(repo, [
    "diff-tree",
    "-z",
    "--raw",
    "--numstat",
    ...DIFF_BASE_ARGS,
    trees.from,
    trees.to
  ]);
  const files = parseDiffChanges(decodeBytes(out.stdout));
  let insertions = 0;
  let deletions = 0;
  for (const f of files) {
    insertions += f.insertions;
    deletions += f.deletions;
  }
  return { filesChanged: files.length, insertions, deletions, files };
}
var DIFF_BASE_ARGS;
var init_diff_stats = __esm({
  "src/git/diff-stats.ts"() {
    "use strict";
    init_path_bytes();
    init_errors();
    init_empty_tree();
    init_batch_check();
    init_diff_changes();
    init_runner();
    DIFF_BASE_ARGS = [
      "-r",
      "-M",
      "-C",
      "-l1000",
      "--no-ext-diff",
      "--no-textconv",
      "--no-relative",
      "--ignore-submodules=none"
    ];
  }
});

// src/git/unified-diff.ts
import { createHash } from "node:crypto";
import { resolve as resolve3 } from "node:path";
async function unifiedDiff(repo, from, to) {
  const trees = await resolveDiffTrees(repo, from, to);
  return (await runGitBuffer(repo, [...PATCH_ARGS, trees.from, trees.to])).stdout.toString("utf8");
}
async function writeUnifiedDiffToFile(repo, from, to, file) {
  return writeTreeDiffToFile(repo, await resolveDiffTrees(repo, from, to), file);
}
async function writeTreeDiffToFile(repo, trees, file) {
  const path = resolve3(file);
  const bytes = await replaceFileAtomic(
    path,
    (temp) => runGitToFile(repo, [...PATCH_ARGS, trees.from, trees.to], temp)
  );
  return { path, bytes };
}
async function treeDiffSha256(repo, trees) {
  const hash = createHash("sha256");
  await runGitStream(repo, [...PATCH_ARGS, trees.from, trees.to], async (stdout) => {
    for await (const chunk of stdout) hash.update(chunk);
  });
  return hash.digest("hex");
}
var PATCH_ARGS;
var init_unified_diff = __esm({
  "src/git/unified-diff.ts"() {
    "use strict";
    init_atomic();
    init_diff_stats();
    init_runner();
    PATCH_ARGS = [
      "diff-tree",
      "-p",
      "--binary",
      "--full-index",
      "--no-color",
      "--src-prefix=a/",
      "--dst-prefix=b/",
      ...DIFF_BASE_ARGS
    ];
  }
});

// src/git/commit.ts
import { realpath as realpath2 } from "node:fs/promises";
import { relative as relative2, resolve as resolve4, sep as sep3 } from "node:path";
async function createSnapshotCommit(repo, message, opts = {}) {
  const head = opts.head ?? await readHead(repo);
  const ref = head.ref ?? "HEAD";
  const parent = opts.expectedHead === void 0 ? head.sha : opts.expectedHead;
  const excludes = await excludePathspecs(repo.topLevel, opts.excludes ?? []);
  const [skipped, parentTree] = await Promise.all([
    stageAll(repo, excludes),
    parent === null ? null : getTree(repo, parent)
  ]);
  const tree = assertGitId((await runGit(repo, ["write-tree"])).stdout.trim(), "write-tree");
  const also = (sha2) => (opts.alsoPoint ?? []).map((r) => ({ ref: r, newSha: sha2 }));
  if (parent !== null && parentTree === tree) {
    await updateRefs(repo, also(parent), { message: "agentgate: keep snapshot reachable" });
    return { sha: parent, tree, parent, created: false, ref, skipped };
  }
  const sha = await commitTree(repo, tree, parent === null ? [] : [parent], message);
  const subject = message.split("\n", 1)[0] ?? "";
  await updateRefs(repo, [{ ref, newSha: sha, oldSha: parent }, ...also(sha)], {
    message: `agentgate snapshot: ${subject}`.slice(0, 200),
    noDeref: head.ref === null
  });
  return { sha, tree, parent, created: true, ref, skipped };
}
async function stageAll(repo, excludes) {
  const skipped = [];
  for (; ; ) {
    const left = skipped.map((s) => `:(exclude,top,literal)${s.path}`);
    try {
      await runGit(repo, [...STAGING_CONFIG, "add", "-A", "--sparse", "--", ":(top)", ...excludes, ...left]);
      return skipped;
    } catch (error2) {
      const stderr = error2 instanceof GitFailedError ? String(error2.details.stderr ?? "") : "";
      const found = UNSTAGEABLE.flatMap(
        ([pattern, reason]) => [...stderr.matchAll(pattern)].map((m) => ({ path: m[1], reason }))
      );
      const fresh = found.filter((f) => !skipped.some((s) => s.path === f.path));
      if (fresh.length === 0) throw error2;
      skipped.push(...fresh);
    }
  }
}
async function commitTree(repo, tree, parents, message) {
  for (const id of [tree, ...parents]) {
    if (!isFullId(id))
      throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, { details: { id } });
  }
  const text = message.endsWith("\n") ? message : `${message}
`;
  const args = ["commit-tree", "--no-gpg-sign", ...parents.flatMap((p) => ["-p", p]), tree];
  return assertGitId((await runGit(repo, args, { input: text })).stdout.trim(), "commit-tree");
}
async function excludePathspecs(topLevel, excludes) {
  const out = [];
  for (const path of excludes) {
    const abs = resolve4(topLevel, path);
    const real = await realpath2(abs).catch(() => abs);
    const inside = [abs, real].find((p) => isInside(topLevel, p));
    if (inside === void 0) continue;
    const rel = relative2(topLevel, inside).split(sep3).join("/");
    if (rel === "")
      throw new InvalidArgumentError(`exclude ${path} is the whole workspace; nothing would be snapshotted`, {
        details: { exclude: path }
      });
    out.push(`:(exclude,top,literal)${rel}`);
  }
  return out;
}
var UNSTAGEABLE;
var init_commit = __esm({
  "src/git/commit.ts"() {
    "use strict";
    init_errors();
    init_ids2();
    init_refs();
    init_repo();
    init_hardening();
    init_runner();
    UNSTAGEABLE = [
      [/^error: (.+): can only add regular files, symbolic links or git-directories$/gm, "special-file"],
      [/^error: open\("(.+)"\): Permission denied$/gm, "unreadable"]
    ];
  }
});

// src/store/json-file.ts
import { readdir as readdir3, readFile as readFile7 } from "node:fs/promises";
import { join as join10 } from "node:path";
function corruptFile(path, what, reason, cause) {
  return new StoreCorruptError(
    `${path} is not a valid ${what}: ${reason}. Restore it from a backup or move it out of the store, then run "agentgate-snapshot verify --all"`,
    { cause, details: { path, reason } }
  );
}
async function readJsonFile(path, schema, what) {
  let text;
  try {
    text = await readFile7(path, "utf8");
  } catch (cause) {
    if (cause.code === "ENOENT") return null;
    throw corruptFile(path, what, `unreadable (${errnoOf(cause)})`, cause);
  }
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw corruptFile(
      path,
      what,
      `invalid JSON (${cause instanceof Error ? cause.message : String(cause)}; truncated?)`,
      cause
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw corruptFile(path, what, describeIssues(parsed.error.issues), parsed.error);
  return parsed.data;
}
function describeIssues(issues) {
  return issues.slice(0, 5).map((issue2) => `${issue2.path.length > 0 ? issue2.path.join(".") : "(root)"}: ${issue2.message}`).join("; ");
}
async function listJsonNames(dir) {
  let entries;
  try {
    entries = await readdir3(dir);
  } catch (cause) {
    if (cause.code === "ENOENT") return [];
    throw corruptFile(dir, "store directory", `unreadable (${errnoOf(cause)})`, cause);
  }
  return entries.filter((name) => name.endsWith(".json") && !name.startsWith(".")).map((name) => name.slice(0, -".json".length)).sort();
}
async function mapLimit(items, fn, limit = 32) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
async function loadAll(dir, what, load) {
  const items = [];
  const problems = [];
  await mapLimit(await listJsonNames(dir), async (name) => {
    try {
      const item = await load(name);
      if (item !== null) items.push(item);
    } catch (error2) {
      problems.push(asStoreProblem(error2, join10(dir, `${name}.json`), what));
    }
  });
  problems.sort((a, b) => String(a.details.path).localeCompare(String(b.details.path)));
  return { items, problems };
}
function asStoreProblem(error2, path, what) {
  if (error2 instanceof StoreCorruptError) return error2;
  if (error2 instanceof InvalidIdError)
    return corruptFile(path, what, "its file name is not a valid id", error2);
  throw error2;
}
var init_json_file = __esm({
  "src/store/json-file.ts"() {
    "use strict";
    init_errors();
    init_atomic();
  }
});

// types/run.ts
var RunRecord;
var init_run = __esm({
  "types/run.ts"() {
    "use strict";
    init_zod();
    init_snapshot();
    RunRecord = object({
      runId: SafeId,
      workspace: string2().min(1),
      createdAt: IsoDate,
      updatedAt: IsoDate,
      before: BeforeState.nullable(),
      /** The snapshot whose `after` used `before` up: a second `after` needs a new `before` (or an explicit --before). */
      beforeUsedBy: object({ snapshotId: SafeId, iteration: number2().int().nonnegative() }).nullable().optional(),
      snapshotIds: array(SafeId),
      /** For a run rebuilt from fetched or imported records: the workspace where it was recorded. */
      recordedWorkspace: string2().min(1).optional()
    });
  }
});

// src/store/run-records.ts
import { join as join11 } from "node:path";
function requireWorkspace(workspace) {
  if (typeof workspace !== "string" || workspace.length === 0)
    throw new InvalidArgumentError("a run record needs its workspace path", { details: { workspace } });
  return workspace;
}
function assertRunWorkspace(run, runId, workspace) {
  if (run === null || run.workspace === workspace) return;
  throw new RunWorkspaceMismatchError(
    `run ${runId} belongs to the workspace ${run.workspace}, not ${workspace}; use another run id for this workspace`,
    {
      details: { runId, workspace: run.workspace, given: workspace }
    }
  );
}
var RunRecords;
var init_run_records = __esm({
  "src/store/run-records.ts"() {
    "use strict";
    init_snapshot();
    init_run();
    init_errors();
    init_atomic();
    init_json_file();
    init_lock();
    init_paths();
    RunRecords = class {
      constructor(home, lockTimeoutMs) {
        this.home = home;
        this.lockTimeoutMs = lockTimeoutMs;
      }
      home;
      lockTimeoutMs;
      path(runId) {
        return join11(layout(this.home).runs, `${assertSafeId(runId, "run id")}.json`);
      }
      /** The run's record, or null when it has none; STORE_CORRUPT when the file is unusable. */
      async load(runId) {
        const path = this.path(runId);
        const record2 = await readJsonFile(path, RunRecord, "run record");
        if (record2 !== null && record2.runId !== runId)
          throw corruptFile(path, "run record", `it names run ${JSON.stringify(record2.runId)}`);
        return record2;
      }
      /** Every run record that loads, oldest first, and one STORE_CORRUPT per file that does not. */
      async list() {
        const { items: runs2, problems } = await loadAll(
          layout(this.home).runs,
          "run record",
          (name) => this.load(name)
        );
        runs2.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.runId.localeCompare(b.runId));
        return { runs: runs2, problems };
      }
      /** Ids of the runs whose records link `snapshotId` (a scan: used only to repair dangling links). */
      async linking(snapshotId) {
        const { runs: runs2 } = await this.list();
        return runs2.filter((run) => run.snapshotIds.includes(snapshotId)).map((run) => run.runId);
      }
      /**
       * Read-modify-write of one record under the run's lock. `change` gets the current record (a
       * fresh one when `workspace` is given and none exists) and returns the next record, or null to
       * leave the file untouched. Returns the record as stored afterwards.
       */
      async update(runId, workspace, change) {
        const path = this.path(runId);
        const lockPath = join11(layout(this.home).locks, `run-${runId}.lock`);
        return withLock(lockPath, { timeoutMs: this.lockTimeoutMs, purpose: `run record ${runId}` }, async () => {
          const now = (/* @__PURE__ */ new Date()).toISOString();
          const current = await this.load(runId) ?? (workspace === null ? null : { runId, workspace, createdAt: now, updatedAt: now, before: null, snapshotIds: [] });
          if (current === null) return null;
          if (workspace !== null) assertRunWorkspace(current, runId, workspace);
          const next = await change(current);
          if (next === null) return current;
          const checked = RunRecord.safeParse({ ...next, updatedAt: now });
          if (!checked.success)
            throw new InvalidArgumentError(
              `run record ${runId} would be invalid: ${describeIssues(checked.error.issues)}`,
              { details: { runId, path } }
            );
          await writeJsonAtomic(path, checked.data);
          return checked.data;
        });
      }
      /** Creates the run's record if needed and sets its latest before state. */
      async recordBefore(runId, workspace, before2) {
        assertSafeId(runId, "run id");
        const parsed = BeforeState.safeParse(before2);
        if (!parsed.success)
          throw new InvalidArgumentError(
            `before state for run ${runId} is invalid: ${describeIssues(parsed.error.issues)}`,
            { details: { runId } }
          );
        if (parsed.data.runId !== runId)
          throw new InvalidArgumentError(`before state belongs to run ${parsed.data.runId}, not ${runId}`, {
            details: { runId }
          });
        return await this.update(runId, requireWorkspace(workspace), (current) => ({
          ...current,
          before: parsed.data,
          beforeUsedBy: null
        }));
      }
      /**
       * Links a snapshot into its run, keeping `snapshotIds` ordered by iteration. Linking an id that
       * is already linked changes nothing. A second snapshot of an iteration that already has one is
       * kept after it (both stay linked: nothing the store recorded is dropped silently). Positions
       * are found from the end, so the usual append reads one snapshot file; ids whose files cannot be
       * read keep their place.
       */
      async link(runId, workspace, snapshotId, iteration, iterationOf, usesBefore = false) {
        assertSafeId(runId, "run id");
        assertSafeId(snapshotId, "snapshot id");
        if (!Number.isInteger(iteration) || iteration < 0)
          throw new InvalidArgumentError(`iteration must be a non-negative integer, got ${iteration}`, {
            details: { iteration }
          });
        return await this.update(runId, requireWorkspace(workspace), async (current) => {
          const used = usesBefore ? { beforeUsedBy: { snapshotId, iteration } } : {};
          if (current.snapshotIds.includes(snapshotId))
            return usesBefore && current.beforeUsedBy?.snapshotId !== snapshotId ? { ...current, ...used } : null;
          const ids = [...current.snapshotIds];
          let at = ids.length;
          while (at > 0) {
            const previous = await iterationOf(ids[at - 1]);
            if (previous === null || previous <= iteration) break;
            at -= 1;
          }
          ids.splice(at, 0, snapshotId);
          return { ...current, snapshotIds: ids, ...used };
        });
      }
      /** Removes a link; true when the run had it. A run without a record has nothing to unlink. */
      async unlink(runId, snapshotId) {
        let removed = false;
        await this.update(runId, null, (current) => {
          if (!current.snapshotIds.includes(snapshotId)) return null;
          removed = true;
          return { ...current, snapshotIds: current.snapshotIds.filter((id) => id !== snapshotId) };
        });
        return removed;
      }
    };
  }
});

// src/store/snapshot-store.ts
import { rm as rm7, stat as stat4 } from "node:fs/promises";
import { join as join12, resolve as resolve5 } from "node:path";
function byRunThenIteration(a, b) {
  return a.runId.localeCompare(b.runId) || a.iteration - b.iteration || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}
function danglingLink(runFile, id, snapshotFile) {
  return new StoreCorruptError(
    `${runFile} links snapshot ${id}, but ${snapshotFile} does not exist. Restore that file from a backup, or delete snapshot ${id} to drop the link`,
    { details: { path: runFile, snapshotId: id, missing: snapshotFile } }
  );
}
async function removeFile(path) {
  const exists4 = await stat4(path).then(
    () => true,
    () => false
  );
  if (!exists4) return false;
  try {
    await rm7(path, { force: true });
    return true;
  } catch (cause) {
    throw new WriteFailedError(`could not remove ${path} (${errnoOf(cause)}); check permissions`, {
      cause,
      details: { path }
    });
  }
}
var SnapshotStore;
var init_snapshot_store = __esm({
  "src/store/snapshot-store.ts"() {
    "use strict";
    init_sweep();
    init_snapshot();
    init_errors();
    init_atomic();
    init_json_file();
    init_lock();
    init_paths();
    init_run_records();
    SnapshotStore = class {
      home;
      lockTimeoutMs;
      runs;
      constructor(home, options = {}) {
        this.home = resolve5(home);
        this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
        this.runs = new RunRecords(this.home, this.lockTimeoutMs);
      }
      snapshotPath(id) {
        return join12(layout(this.home).snapshots, `${assertSafeId(id, "snapshot id")}.json`);
      }
      runPath(runId) {
        return this.runs.path(runId);
      }
      /**
       * Validates and stores a snapshot. Saving the same snapshot again is a no-op (safe to retry);
       * a different snapshot under an existing id is refused with CONCURRENT_UPDATE unless `replace`
       * is set, because ids are unique and a silent overwrite would lose a record. Returns what was stored.
       */
      async save(snapshot, options = {}) {
        const id = snapshot?.id;
        if (typeof id === "string") assertSafeId(id, "snapshot id");
        const runId = snapshot?.runId;
        if (typeof runId === "string") assertSafeId(runId, "run id");
        const parsed = Snapshot.safeParse(snapshot);
        if (!parsed.success) {
          throw new InvalidArgumentError(
            `snapshot ${typeof id === "string" ? id : "(no id)"} is not valid: ${describeIssues(parsed.error.issues)}`,
            {
              details: { issues: parsed.error.issues }
            }
          );
        }
        const valid = parsed.data;
        const path = this.snapshotPath(valid.id);
        await this.withSnapshotLock(valid.id, async () => {
          if (!options.replace) {
            const existing = await this.load(valid.id);
            if (existing !== null && JSON.stringify(existing) === JSON.stringify(valid)) return;
            if (existing !== null) {
              throw new ConcurrentUpdateError(
                `${path} already holds a different snapshot ${valid.id}; snapshot ids are unique, so this is a second writer or a reused id`,
                {
                  details: { path, id: valid.id }
                }
              );
            }
          }
          await writeJsonAtomic(path, valid);
        });
        return valid;
      }
      /** The snapshot, or null when there is none; STORE_CORRUPT when its file is unusable. */
      async load(id) {
        const path = this.snapshotPath(id);
        const snapshot = await readJsonFile(path, Snapshot, "snapshot");
        if (snapshot !== null && snapshot.id !== id)
          throw corruptFile(path, "snapshot", `it holds snapshot ${JSON.stringify(snapshot.id)}`);
        return snapshot;
      }
      /**
       * The run's snapshots ordered by iteration, read through its run record. RUN_NOT_FOUND without a
       * record; STORE_CORRUPT when a linked snapshot is missing, unusable or belongs to another run
       * (use `inspectRun` to get the rest anyway).
       */
      async loadByRun(runId) {
        const { snapshots, problems } = await this.inspectRun(runId);
        if (problems[0] !== void 0) throw problems[0];
        return snapshots;
      }
      /** Like `loadByRun`, but a bad link is reported in `problems` instead of stopping the rest. */
      async inspectRun(runId) {
        const run = await this.loadRun(runId);
        if (run === null)
          throw new RunNotFoundError(
            `no run ${runId} in ${layout(this.home).runs}; "runs" lists the recorded ones`,
            { details: { runId } }
          );
        const runFile = this.runPath(runId);
        const found = [];
        const problems = [];
        for (const id of run.snapshotIds) {
          try {
            const snapshot = await this.load(id);
            if (snapshot === null) problems.push(danglingLink(runFile, id, this.snapshotPath(id)));
            else if (snapshot.runId !== runId)
              problems.push(
                corruptFile(
                  runFile,
                  "run record",
                  `it links snapshot ${id}, which belongs to run ${snapshot.runId}`
                )
              );
            found.push(snapshot);
          } catch (error2) {
            problems.push(asStoreProblem(error2, this.snapshotPath(id), "snapshot"));
          }
        }
        const snapshots = found.filter((s) => s !== null && s.runId === runId);
        snapshots.sort((a, b) => a.iteration - b.iteration);
        return { run, snapshots, problems };
      }
      /**
       * Removes the snapshot's metadata and its link from its run (under the run's lock, link first, so
       * a crash in between leaves an unlinked file rather than a dangling link). A snapshot whose file
       * is corrupt or already gone is unlinked from every run that still links it. SNAPSHOT_NOT_FOUND
       * when there is neither a file nor a link.
       */
      async delete(id) {
        const path = this.snapshotPath(id);
        let owner = null;
        let hasFile = true;
        try {
          owner = await this.load(id);
          hasFile = owner !== null;
        } catch (error2) {
          if (!(error2 instanceof StoreCorruptError)) throw error2;
        }
        const runIds = owner !== null ? [owner.runId] : await this.runs.linking(id);
        if (!hasFile && runIds.length === 0) {
          throw new SnapshotNotFoundError(
            `no snapshot ${id} in ${layout(this.home).snapshots}; "list" shows the stored ones`,
            { details: { id } }
          );
        }
        const unlinkedFrom = [];
        for (const runId of runIds) if (await this.runs.unlink(runId, id)) unlinkedFrom.push(runId);
        const removedFile = await this.withSnapshotLock(id, () => removeFile(path));
        return { id, removedFile, unlinkedFrom };
      }
      /** Every snapshot that loads, by run then iteration, and one STORE_CORRUPT per file that does not. */
      async list() {
        const { items: snapshots, problems } = await loadAll(
          layout(this.home).snapshots,
          "snapshot",
          (name) => this.load(name)
        );
        snapshots.sort(byRunThenIteration);
        return { snapshots, problems };
      }
      /** Every run record that loads, oldest first, and one STORE_CORRUPT per file that does not. */
      async listRuns() {
        return this.runs.list();
      }
      /** The run's record, or null; STORE_CORRUPT when its file is unusable. */
      async loadRun(runId) {
        return this.runs.load(runId);
      }
      /**
       * Read-modify-write of a run record under its lock (created with `workspace` if missing); `change`
       * returns the next record or null to leave it. Used by src/sharing to note where a fetched run was recorded.
       */
      async updateRun(runId, workspace, change) {
        return this.runs.update(assertSafeId(runId, "run id"), workspace, change);
      }
      /** Creates the run's record if needed (with `workspace`) and sets its latest before state. */
      async recordBefore(runId, workspace, before2) {
        return this.runs.recordBefore(runId, workspace, before2);
      }
      /**
       * Links a stored snapshot into its run (creating the record with `workspace` if needed), ordered
       * by iteration. Idempotent; a re-captured iteration keeps both snapshots, the newer after the older.
       * The store never creates a dangling link: SNAPSHOT_NOT_FOUND unless the snapshot is saved first,
       * INVALID_ARGUMENT when it names another run or iteration.
       */
      async linkSnapshot(runId, workspace, snapshotId, iteration, usesBefore = false) {
        assertSafeId(runId, "run id");
        const snapshot = await this.load(snapshotId);
        if (snapshot === null)
          throw new SnapshotNotFoundError(`cannot link snapshot ${snapshotId} to run ${runId}: save it first`, {
            details: { id: snapshotId, runId }
          });
        if (snapshot.runId !== runId || snapshot.iteration !== iteration) {
          throw new InvalidArgumentError(
            `snapshot ${snapshotId} is iteration ${snapshot.iteration} of run ${snapshot.runId}, not iteration ${iteration} of run ${runId}`,
            {
              details: { id: snapshotId, runId, iteration }
            }
          );
        }
        const iterationOf = async (id) => {
          try {
            return (await this.load(id))?.iteration ?? null;
          } catch {
            return null;
          }
        };
        return this.runs.link(runId, workspace, snapshotId, iteration, iterationOf, usesBefore);
      }
      /**
       * Removes the temp files a killed writer left in the store (its atomic writes' `.<name>.<pid>.<hex>.tmp`):
       * only ours, only once their writer is gone or an hour old. For recovery, after a lock takeover.
       */
      async sweepTempFiles() {
        const dirs = layout(this.home);
        const swept = await Promise.all([dirs.snapshots, dirs.runs].map((dir) => sweepTempFiles(dir)));
        return swept.flat();
      }
      /**
       * Links the stored snapshots of this run's iteration (taken in `workspace`) that the run does not
       * link: what a process killed between saving a snapshot and linking it leaves behind. Scans the
       * whole store, so it is for recovery only. Returns the ids it linked.
       */
      async linkUnlinked(runId, workspace, iteration) {
        const linked = new Set((await this.loadRun(runId))?.snapshotIds ?? []);
        const { snapshots } = await this.list();
        const unlinked = snapshots.filter(
          (s) => s.runId === runId && s.iteration === iteration && s.workspace === workspace && !linked.has(s.id)
        );
        for (const s of unlinked) await this.linkSnapshot(runId, workspace, s.id, iteration);
        return unlinked.map((s) => s.id);
      }
      /**
       * Snapshots whose id starts with `prefix`, or whose after SHA does (hexadecimal, at least 4
       * characters, any case). An exact id wins alone. INVALID_ID for characters no id or SHA has.
       */
      async findByPrefix(prefix) {
        if (typeof prefix !== "string" || !SAFE_ID.test(prefix)) {
          throw new InvalidIdError(
            `${JSON.stringify(String(prefix).slice(0, 80))} is neither a snapshot id nor a SHA`,
            { details: { value: String(prefix).slice(0, 200) } }
          );
        }
        const { snapshots } = await this.list();
        const exact = snapshots.filter((s) => s.id === prefix);
        if (exact.length > 0) return exact;
        const sha = /^[0-9a-f]{4,64}$/i.test(prefix) ? prefix.toLowerCase() : null;
        return snapshots.filter((s) => s.id.startsWith(prefix) || sha !== null && s.afterSha.startsWith(sha));
      }
      withSnapshotLock(id, fn) {
        const lockPath = join12(layout(this.home).locks, `snapshot-${assertSafeId(id, "snapshot id")}.lock`);
        return withLock(lockPath, { timeoutMs: this.lockTimeoutMs, purpose: `snapshot ${id}` }, fn);
      }
    };
  }
});

// src/snapshotter/message.ts
function iterationMessage(m) {
  return [
    `[agentgate] Run ${m.runId} iteration ${m.iteration}`,
    "",
    taskLine(m.taskPrompt),
    gateLine(m.gatePlanSource),
    "",
    `Agentgate-Run: ${m.runId}`,
    `Agentgate-Iteration: ${m.iteration}`,
    `Agentgate-Before: ${m.beforeSha}`,
    ""
  ].join("\n");
}
function taskLine(taskPrompt) {
  return `Task: ${firstChars(oneLine(taskPrompt), TASK_LIMIT)}`;
}
function gateLine(gatePlanSource) {
  return `Gate: ${oneLine(gatePlanSource)}`;
}
function wipMessage(runId) {
  return `${WIP_SUBJECT}

Agentgate-Run: ${runId}
`;
}
function firstChars(text, limit) {
  let out = "";
  let count = 0;
  for (const char of text) {
    if (count++ === limit) break;
    out += char;
  }
  return out;
}
function oneLine(text) {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, " ").trim();
}
var WIP_SUBJECT, TASK_LIMIT;
var init_message = __esm({
  "src/snapshotter/message.ts"() {
    "use strict";
    WIP_SUBJECT = "[agentgate] WIP before run";
    TASK_LIMIT = 100;
  }
});

// src/snapshotter/patch-artifact.ts
import { createHash as createHash2 } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile } from "node:fs/promises";
async function writePatchArtifact(repo, trees, path) {
  await writeTreeDiffToFile(repo, trees, path);
  return { path, sha256: await sha256File(path) };
}
async function copyFileAtomic(src, dest) {
  await replaceFileAtomic(dest, (temp) => copyFile(src, temp));
}
async function sha256File(path) {
  const hash = createHash2("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest("hex");
}
var init_patch_artifact = __esm({
  "src/snapshotter/patch-artifact.ts"() {
    "use strict";
    init_unified_diff();
    init_atomic();
  }
});

// src/git/apply-check.ts
import { mkdtemp as mkdtemp3, rm as rm8 } from "node:fs/promises";
import { tmpdir as tmpdir3 } from "node:os";
import { join as join13 } from "node:path";
async function treeAfterApplying(repo, base, patchFile) {
  const dir = await mkdtemp3(join13(tmpdir3(), "agentgate-apply-"));
  const scratch = { ...repo, indexFile: join13(dir, "index") };
  try {
    await runGit(scratch, ["read-tree", `${base}^{tree}`]);
    await runGit(scratch, ["apply", "--cached", "--binary", "--whitespace=nowarn", patchFile]);
    return (await runGit(scratch, ["write-tree"])).stdout.trim();
  } finally {
    await rm8(dir, { recursive: true, force: true });
  }
}
var init_apply_check = __esm({
  "src/git/apply-check.ts"() {
    "use strict";
    init_runner();
  }
});

// src/snapshotter/verify.ts
import { stat as stat5 } from "node:fs/promises";
async function verifySnapshot(snapshot, run, git) {
  const checks = [];
  const add = (check, ok, detail) => checks.push({ check, ok, detail });
  add(
    "run-links-snapshot",
    run?.snapshotIds.includes(snapshot.id) ?? false,
    run ? run.snapshotIds.includes(snapshot.id) ? `run ${run.runId} lists it` : `run ${run.runId} does not list it` : `run ${snapshot.runId} not found`
  );
  const artifactOk = await artifactCheck(snapshot, add);
  let repo = null;
  try {
    repo = await openRepo(snapshot.workspace, git);
  } catch (error2) {
    add("workspace", false, `cannot open ${snapshot.workspace}: ${error2.message}`);
  }
  if (repo && await gitChecks(repo, snapshot, add) && artifactOk && snapshot.patchPath) {
    const [beforeTree, expected] = await Promise.all([
      getTree(repo, snapshot.beforeSha),
      getTree(repo, snapshot.afterSha)
    ]);
    if (await treeDiffSha256(repo, { from: beforeTree, to: expected }).catch(() => null) === snapshot.patchSha256) {
      add("patch-applies", true, "the artifact is byte for byte git's patch from before to after");
    } else {
      const applied = await treeAfterApplying(repo, snapshot.beforeSha, snapshot.patchPath).catch(
        (e) => `fails: ${e.message}`
      );
      add(
        "patch-applies",
        applied === expected,
        applied === expected ? "applying the patch to before gives exactly the after tree" : `applying the patch to before gives ${applied}, after tree is ${expected}`
      );
    }
  }
  return checks.map((c) => ({ snapshotId: snapshot.id, runId: snapshot.runId, ...c }));
}
async function artifactCheck(snapshot, add) {
  if (snapshot.patchPath === null) {
    const ok2 = snapshot.beforeSha === snapshot.afterSha;
    add("patch-artifact", ok2, ok2 ? "no change, no artifact" : "changed snapshot has no patch artifact");
    return ok2;
  }
  const exists4 = await stat5(snapshot.patchPath).then(
    (s) => s.isFile(),
    () => false
  );
  if (!exists4) {
    add("patch-artifact", false, `${snapshot.patchPath} is missing ("patch" regenerates the diff from git)`);
    return false;
  }
  const actual = await sha256File(snapshot.patchPath);
  const ok = actual === snapshot.patchSha256;
  add(
    "patch-artifact",
    ok,
    ok ? `${snapshot.patchPath} sha256 matches` : `${snapshot.patchPath} sha256 is ${actual}, recorded ${snapshot.patchSha256}`
  );
  return ok;
}
async function gitChecks(repo, snapshot, add) {
  const before2 = await objectExists(repo, snapshot.beforeSha);
  const after2 = await objectExists(repo, snapshot.afterSha);
  add("before-exists", before2, snapshot.beforeSha);
  add("after-exists", after2, snapshot.afterSha);
  if (!before2 || !after2) return false;
  const ancestor = snapshot.beforeSha === snapshot.afterSha || await isAncestor(repo, snapshot.beforeSha, snapshot.afterSha);
  add(
    "before-is-ancestor",
    ancestor,
    ancestor ? "before is an ancestor of after" : "before is not an ancestor of after"
  );
  await refCheck(repo, snapshot, add);
  await branchCheck(repo, snapshot, add);
  await messageChecks(repo, snapshot, add);
  const stats2 = await getDiffStats(repo, snapshot.beforeSha, snapshot.afterSha);
  const same = stats2.filesChanged === snapshot.filesChanged && stats2.insertions === snapshot.insertions && stats2.deletions === snapshot.deletions;
  add(
    "stats",
    same,
    same ? `${stats2.filesChanged} files, +${stats2.insertions} -${stats2.deletions}` : `git now says ${stats2.filesChanged} files +${stats2.insertions} -${stats2.deletions}`
  );
  const files = JSON.stringify(stats2.files) === JSON.stringify(snapshot.files);
  add(
    "files",
    files,
    files ? "every file's status and counts match git" : `the stored per-file changes differ from git's (${describeFileDifference(snapshot.files, stats2.files)})`
  );
  return ancestor;
}
async function refCheck(repo, snapshot, add) {
  const expected = `refs/agentgate/runs/${snapshot.runId}/iteration-${snapshot.iteration}`;
  if (snapshot.ref !== expected) {
    add(
      "ref",
      false,
      snapshot.ref === null ? `no ref recorded; ${expected} should keep after reachable` : `recorded ref ${snapshot.ref} is not ${expected}`
    );
    return;
  }
  const target = await readRef(repo, snapshot.ref);
  add(
    "ref",
    target === snapshot.afterSha,
    target === snapshot.afterSha ? `${snapshot.ref} keeps after reachable` : `${snapshot.ref} points at ${target ?? "nothing"}`
  );
}
async function branchCheck(repo, snapshot, add) {
  if (snapshot.recordedWorkspace !== void 0) {
    add(
      "branch",
      true,
      `recorded on another machine: its branch ${snapshot.branch} did not travel (the ref and commits are checked)`
    );
    return;
  }
  const tip = await readRef(repo, `refs/heads/${snapshot.branch}`).catch(() => null);
  if (tip === null) {
    add("branch", false, `branch ${snapshot.branch} does not exist`);
    return;
  }
  const holds = tip === snapshot.afterSha || await isAncestor(repo, snapshot.afterSha, tip);
  add(
    "branch",
    holds,
    holds ? `${snapshot.branch} contains after` : `${snapshot.branch} does not contain after ${snapshot.afterSha}`
  );
}
function describeFileDifference(stored, actual) {
  if (stored.length !== actual.length) return `${stored.length} stored, ${actual.length} in git`;
  const at = stored.findIndex((f, i) => JSON.stringify(f) !== JSON.stringify(actual[i]));
  return `first at ${actual[at]?.path ?? stored[at]?.path ?? "?"}`;
}
async function messageChecks(repo, snapshot, add) {
  if (snapshot.commitMessage === "" || snapshot.beforeSha === snapshot.afterSha) return;
  const message = (await getCommitInfo(repo, snapshot.afterSha)).message;
  const same = message === snapshot.commitMessage.replace(/\n$/, "");
  add(
    "commit-message",
    same,
    same ? "the after commit carries the stored message" : "the after commit's message differs from the stored one"
  );
  const trailers = {
    run: trailer(message, "Agentgate-Run"),
    iteration: trailer(message, "Agentgate-Iteration"),
    before: trailer(message, "Agentgate-Before")
  };
  const trailersOk = trailers.run === snapshot.runId && trailers.iteration === String(snapshot.iteration) && trailers.before === snapshot.beforeSha;
  add(
    "trailers",
    trailersOk,
    trailersOk ? "run, iteration and before match the commit's trailers" : `the commit says run ${trailers.run ?? "-"}, iteration ${trailers.iteration ?? "-"}, before ${trailers.before ?? "-"}`
  );
  if (snapshot.task === void 0 && snapshot.gate === void 0) return;
  const lines = message.split("\n");
  const taskOk = snapshot.task === null || snapshot.task === void 0 || lines.includes(taskLine(snapshot.task));
  const gateOk = snapshot.gate === null || snapshot.gate === void 0 || lines.includes(gateLine(snapshot.gate));
  add(
    "task",
    taskOk && gateOk,
    taskOk && gateOk ? "task and gate match the commit's Task and Gate lines" : `the stored ${taskOk ? "gate" : "task"} does not match the commit's ${taskOk ? "Gate" : "Task"} line`
  );
}
function trailer(message, key) {
  const line = message.split("\n").find((l) => l.startsWith(`${key}: `));
  return line === void 0 ? null : line.slice(key.length + 2).trim();
}
async function continuityChecks(snapshots, git) {
  const checks = [];
  const ordered = [...snapshots].sort((a, b) => a.iteration - b.iteration);
  const repos = /* @__PURE__ */ new Map();
  const repoOf = (workspace) => {
    if (!repos.has(workspace))
      repos.set(
        workspace,
        openRepo(workspace, git).catch(() => null)
      );
    return repos.get(workspace);
  };
  for (let i = 1; i < ordered.length; i++) {
    const prev = ordered[i - 1];
    const next = ordered[i];
    let ok = next.beforeSha === prev.afterSha;
    if (!ok) {
      const repo = await repoOf(next.workspace);
      ok = repo !== null && await isAncestor(repo, prev.afterSha, next.beforeSha).catch(() => false);
    }
    const detail = ok ? `iteration ${next.iteration} starts where iteration ${prev.iteration} ended` : `iteration ${next.iteration} starts at ${next.beforeSha}, which does not build on iteration ${prev.iteration}'s ${prev.afterSha}`;
    checks.push({ snapshotId: next.id, runId: next.runId, check: "continuity", ok, detail });
  }
  return checks;
}
var init_verify = __esm({
  "src/snapshotter/verify.ts"() {
    "use strict";
    init_diff_stats();
    init_repo();
    init_apply_check();
    init_unified_diff();
    init_refs();
    init_patch_artifact();
    init_commit_info();
    init_message();
  }
});

// src/git/repo-lock.ts
import { join as join14 } from "node:path";
async function withRepoLock(repo, timeoutMs, fn) {
  return withLock(
    join14(repo.gitDir, "agentgate.lock"),
    { timeoutMs, purpose: `snapshot ${repo.topLevel}` },
    async (lock) => {
      if (lock.recovered)
        await removeOrphanedGitLocks({
          gitDir: repo.gitDir,
          ownerSince: Date.parse(lock.recovered.createdAt)
        });
      await recoverIndexLock(join14(repo.gitDir, "index.lock"));
      return fn(lock.recovered !== null);
    }
  );
}
async function recoverIndexLock(path) {
  if (await removeAbandonedLock(path) !== "held") return;
  throw new IndexLockedError(
    `${path} is held by a running process (another git in this repository), or its holder cannot be checked on this system; wait for that git to finish (or remove the file once none runs), then retry`,
    { details: { lock: path } }
  );
}
var init_repo_lock = __esm({
  "src/git/repo-lock.ts"() {
    "use strict";
    init_errors();
    init_git_locks();
    init_lock();
  }
});

// src/snapshotter/excludes.ts
import { lstat as lstat2, readdir as readdir4, realpath as realpath3 } from "node:fs/promises";
import { basename as basename3, dirname as dirname4, join as join15, relative as relative3, sep as sep4 } from "node:path";
async function workspaceExcludes(topLevel, dirs) {
  const out = [];
  for (const [what, dir] of [
    ["agentgate home", dirs.home],
    ["artifacts directory", dirs.artifactsDir]
  ]) {
    const real = await realPathOf(dir);
    if (real === topLevel) {
      throw new UnsafeWorkspaceError(
        `the ${what} ${dir} is the workspace itself, so its files would be snapshotted; put it outside the workspace (--home, --artifacts-dir)`,
        {
          details: { workspace: topLevel, [what === "agentgate home" ? "home" : "artifactsDir"]: dir }
        }
      );
    }
    if (isInside(topLevel, real)) out.push(relative3(topLevel, real));
  }
  return out;
}
async function realPathOf(path) {
  const real = await realpath3(path).catch(() => null);
  if (real !== null) return real;
  const parent = dirname4(path);
  return parent === path ? path : join15(await realPathOf(parent), basename3(path));
}
async function assertNoLinkInside(topLevel, file) {
  const real = await realPathOf(dirname4(file));
  const lexical = relative3(topLevel, file);
  const inside = isInside(topLevel, real) || !lexical.startsWith("..") && lexical !== "";
  if (!inside) return;
  const rel = isInside(topLevel, file) ? lexical : relative3(topLevel, join15(real, basename3(file)));
  let at = topLevel;
  for (const part of rel.split(sep4).slice(0, -1)) {
    at = join15(at, part);
    const info = await lstat2(at).catch(() => null);
    if (info?.isSymbolicLink()) {
      throw new UnsafeWorkspaceError(
        `${at} inside the workspace is a symbolic link, so writing ${file} would follow it elsewhere; remove the link (or keep artifacts outside the workspace) and retry`,
        {
          details: { workspace: topLevel, path: at }
        }
      );
    }
  }
}
async function hasUserFiles(dir, dirs) {
  const ours = [await realPathOf(dirs.home), await realPathOf(dirs.artifactsDir)];
  const entries = await readdir4(dir);
  return entries.some((name) => !ours.some((own2) => isInside(join15(dir, name), own2)));
}
var init_excludes = __esm({
  "src/snapshotter/excludes.ts"() {
    "use strict";
    init_errors();
    init_repo();
  }
});

// src/snapshotter/snapshotter.ts
import { readFile as readFile8, rm as rm9, rmdir, stat as stat6 } from "node:fs/promises";
import { dirname as dirname5 } from "node:path";
async function nameDetachedHead(repo, runId, sha) {
  for (let n = 1; n <= MAX_DETACHED_BRANCHES; n++) {
    const name = n === 1 ? `agentgate/${runId}` : `agentgate/${runId}-${n}`;
    if (await readRef(repo, `refs/heads/${name}`) !== null) continue;
    await switchToBranch(repo, name, sha);
    return name;
  }
  throw new InvalidArgumentError(
    `branches agentgate/${runId} to agentgate/${runId}-${MAX_DETACHED_BRANCHES} all exist; delete the old ones or check out a branch`,
    {
      details: { runId }
    }
  );
}
function assertNoOperation(state) {
  if (state.unmergedPaths.length > 0) {
    throw new UnmergedPathsError(
      `the workspace has unmerged paths (${state.unmergedPaths.slice(0, 5).join(", ")}); resolve the conflicts and commit, then retry`,
      {
        details: { paths: state.unmergedPaths }
      }
    );
  }
  if (state.operation) {
    throw new OperationInProgressError(
      `a ${state.operation} is in progress; finish it or abort it (git ${state.operation} --abort), then retry`,
      {
        details: { operation: state.operation }
      }
    );
  }
}
function totals(stats2) {
  return { filesChanged: stats2.filesChanged, insertions: stats2.insertions, deletions: stats2.deletions };
}
var newSnapshotId, DEFAULT_BRANCH, MAX_DETACHED_BRANCHES, Snapshotter;
var init_snapshotter = __esm({
  "src/snapshotter/snapshotter.ts"() {
    "use strict";
    init_sweep();
    init_nanoid();
    init_snapshot();
    init_cherry_pick();
    init_unified_diff();
    init_commit();
    init_commit_info();
    init_diff_stats();
    init_repo();
    init_refs();
    init_state();
    init_errors();
    init_paths();
    init_snapshot_store();
    init_run_records();
    init_message();
    init_atomic();
    init_patch_artifact();
    init_verify();
    init_repo_lock();
    init_excludes();
    newSnapshotId = customAlphabet("0123456789abcdefghijklmnopqrstuvwxyz", 16);
    DEFAULT_BRANCH = "main";
    MAX_DETACHED_BRANCHES = 100;
    Snapshotter = class {
      constructor(options) {
        this.options = options;
        this.store = new SnapshotStore(options.home, { lockTimeoutMs: options.lockTimeoutMs });
      }
      options;
      store;
      /**
       * Records where the run's next iteration starts. A missing repository is initialised, an unborn
       * branch gets a root commit, HEAD is switched to `branch` when one is given (otherwise a detached
       * HEAD gets the branch `agentgate/<runId>`), and uncommitted work is saved as a WIP commit (or
       * refused with DIRTY_WORKSPACE when onDirty is "error").
       */
      async captureBeforeState(workspace, opts) {
        const runId = assertSafeId(opts.runId, "run id");
        const onDirty = opts.onDirty ?? this.options.onDirty;
        const { repo, nested } = await this.openOrInit(workspace, onDirty, opts.init === true);
        return withRepoLock(repo, this.options.lockTimeoutMs, async () => {
          assertRunWorkspace(await this.store.loadRun(runId), runId, repo.topLevel);
          const excludes = await workspaceExcludes(repo.topLevel, this.options);
          const state = await getRepoState(repo, excludes);
          assertNoOperation(state);
          const dirty = state.isDirty;
          if (dirty && onDirty === "error") {
            throw new DirtyWorkspaceError(
              `${repo.topLevel} has uncommitted changes; commit or stash them, or use --on-dirty wip-commit`,
              {
                details: { workspace: repo.topLevel }
              }
            );
          }
          let branch = state.branch;
          if (opts.branch !== void 0) {
            await switchToBranch(repo, opts.branch, state.sha);
            branch = opts.branch;
          } else if (state.headState === "detached" && state.sha) {
            branch = await nameDetachedHead(repo, runId, state.sha);
          }
          const unborn = state.headState === "unborn";
          const message = unborn && !dirty ? `[agentgate] Root commit before run ${runId}
` : wipMessage(runId);
          if (dirty) await assertNoLfs(repo);
          const commit = dirty || unborn ? await createSnapshotCommit(repo, message, { excludes }) : null;
          const wipSha = commit?.created && dirty ? commit.sha : null;
          const sha = commit?.sha ?? state.sha;
          const before2 = {
            sha,
            branch: branch ?? DEFAULT_BRANCH,
            isDirty: wipSha !== null,
            wipSha,
            capturedAt: (/* @__PURE__ */ new Date()).toISOString(),
            runId,
            headState: state.headState,
            ...nested.length > 0 ? { nestedRepositories: nested } : {},
            ...commit !== null && commit.skipped.length > 0 ? { skipped: commit.skipped } : {}
          };
          await this.store.recordBefore(runId, repo.topLevel, before2);
          return before2;
        });
      }
      /**
       * Commits everything the iteration changed and stores the snapshot. Compares against the before
       * SHA, not against "dirty", so commits the agent made itself are part of the snapshot. With no
       * change at all, nothing is committed and afterSha equals beforeSha.
       */
      async captureAfterState(workspace, before2, opts) {
        const runId = assertSafeId(opts.runId, "run id");
        if (!Number.isSafeInteger(opts.iteration) || opts.iteration < 0) {
          throw new InvalidArgumentError(
            `iteration must be a whole number from 0 up, not ${String(opts.iteration)}`,
            { details: { iteration: opts.iteration } }
          );
        }
        const repo = await openRepo(workspace, this.gitOptions());
        return withRepoLock(repo, this.options.lockTimeoutMs, async (recovered) => {
          if (recovered) {
            await this.store.linkUnlinked(runId, repo.topLevel, opts.iteration);
            await this.store.sweepTempFiles();
            await sweepTempFiles(dirname5(patchPath(this.options.artifactsDir, runId, opts.iteration)));
          }
          const head = await getRepoHead(repo);
          const start = await this.startOf(repo, runId, opts.iteration, before2, opts.beforeSha, head);
          assertNoOperation(head);
          await this.assertDescends(repo, start.sha, head);
          const message = iterationMessage({
            runId,
            iteration: opts.iteration,
            taskPrompt: opts.taskPrompt ?? "",
            gatePlanSource: opts.gatePlanSource ?? "",
            beforeSha: start.sha
          });
          const excludes = await workspaceExcludes(repo.topLevel, this.options);
          const done = await this.assertIterationFree(runId, opts.iteration, {
            beforeSha: start.sha,
            headSha: head.sha,
            message,
            isDirty: async () => (await getRepoState(repo, excludes)).isDirty
          });
          if (done) return done;
          const artifactPath = patchPath(this.options.artifactsDir, runId, opts.iteration);
          await assertNoLinkInside(repo.topLevel, artifactPath);
          await assertNoLfs(repo);
          const detached = head.headState === "detached" && head.sha !== null;
          const branch = detached ? await nameDetachedHead(repo, runId, head.sha) : head.branch ?? start.branch;
          const ref = `refs/agentgate/runs/${runId}/iteration-${opts.iteration}`;
          const [commit, beforeTree] = await Promise.all([
            createSnapshotCommit(repo, message, {
              excludes,
              alsoPoint: [ref],
              ...detached ? {} : { head: { ref: head.ref, sha: head.sha } }
            }),
            getTree(repo, start.sha)
          ]);
          const afterSha = commit.sha;
          const trees = { from: beforeTree, to: commit.tree };
          const ours = commit.created || afterSha !== start.sha && (await getCommitInfo(repo, afterSha)).message === message.replace(/\n$/, "");
          const [stats2, artifact] = await Promise.all([
            treeDiffStats(repo, trees),
            afterSha === start.sha ? null : writePatchArtifact(repo, trees, artifactPath)
          ]);
          const snapshot = {
            id: `snap-${newSnapshotId()}`,
            runId,
            iteration: opts.iteration,
            beforeSha: start.sha,
            afterSha,
            branch,
            commitMessage: ours ? message : "",
            patchPath: artifact?.path ?? null,
            patchSha256: artifact?.sha256 ?? null,
            ...totals(stats2),
            createdAt: (/* @__PURE__ */ new Date()).toISOString(),
            files: stats2.files,
            workspace: repo.topLevel,
            ref,
            task: opts.taskPrompt ?? null,
            gate: opts.gatePlanSource ?? null,
            ...commit.skipped.length > 0 ? { skipped: commit.skipped } : {}
          };
          await this.store.save(snapshot);
          await this.store.linkSnapshot(runId, repo.topLevel, snapshot.id, snapshot.iteration, start.usesBefore);
          return snapshot;
        });
      }
      /** One snapshot by id, or by a full or abbreviated after SHA when that is unambiguous. */
      async getSnapshot(idOrSha) {
        assertSafeId(idOrSha, "snapshot id");
        const direct = await this.store.load(idOrSha);
        if (direct) return this.withLocalPaths(direct);
        const matches = await this.store.findByPrefix(idOrSha);
        if (matches.length === 1) return this.withLocalPaths(matches[0]);
        const makers = matches.filter((m) => m.beforeSha !== m.afterSha);
        if (makers.length === 1 && matches.every((m) => m.afterSha === makers[0]?.afterSha))
          return this.withLocalPaths(makers[0]);
        if (matches.length > 1) {
          throw new AmbiguousIdError(
            `${idOrSha} matches ${matches.length} snapshots (${matches.slice(0, 5).map((m) => m.id).join(", ")}); give more characters`,
            {
              details: { matches: matches.map((m) => m.id) }
            }
          );
        }
        throw new SnapshotNotFoundError(
          `no snapshot ${JSON.stringify(idOrSha.slice(0, 80))}; "list" shows the stored ones`,
          { details: { id: idOrSha.slice(0, 200) } }
        );
      }
      /** The run's snapshots, ordered by iteration, with this machine's paths. */
      async listByRun(runId) {
        return Promise.all(
          (await this.store.loadByRun(assertSafeId(runId, "run id"))).map((s) => this.withLocalPaths(s))
        );
      }
      /**
       * The snapshot's patch: the artifact when it is intact, else regenerated from git. Writes it to
       * `outputFile` when given (atomically), else returns the text.
       */
      async generatePatch(snapshot, outputFile) {
        if (snapshot.beforeSha === snapshot.afterSha) {
          if (outputFile) await writeFileAtomic(outputFile, "");
          return "";
        }
        snapshot = await this.withLocalPaths(snapshot);
        const intact = snapshot.patchPath !== null && await sha256File(snapshot.patchPath).catch(() => null) === snapshot.patchSha256;
        if (intact && snapshot.patchPath) {
          if (outputFile) await copyFileAtomic(snapshot.patchPath, outputFile);
          return outputFile ? "" : readFile8(snapshot.patchPath, "utf8");
        }
        const repo = await openRepo(snapshot.workspace, this.gitOptions());
        if (outputFile) {
          await writeUnifiedDiffToFile(repo, snapshot.beforeSha, snapshot.afterSha, outputFile);
          return "";
        }
        return unifiedDiff(repo, snapshot.beforeSha, snapshot.afterSha);
      }
      /** Diff statistics between any two revisions of a workspace. */
      async stats(workspace, from, to) {
        const repo = await openRepo(workspace, this.gitOptions());
        return getDiffStats(repo, await resolveRevision(repo, from), await resolveRevision(repo, to));
      }
      /** Verifies one snapshot, a run, or the whole store (including files that no longer load). */
      async verify(target) {
        const checks = [];
        let snapshots;
        if ("id" in target) snapshots = [await this.getSnapshot(target.id)];
        else if ("runId" in target) {
          const contents = await this.store.inspectRun(assertSafeId(target.runId, "run id"));
          snapshots = contents.snapshots;
          for (const problem of contents.problems)
            checks.push({
              snapshotId: null,
              runId: target.runId,
              check: "store-file",
              ok: false,
              detail: problem.message
            });
        } else {
          const listed = await this.store.list();
          snapshots = listed.snapshots;
          for (const problem of listed.problems)
            checks.push({
              snapshotId: null,
              runId: null,
              check: "store-file",
              ok: false,
              detail: problem.message
            });
          const runs3 = await this.store.listRuns();
          for (const problem of runs3.problems)
            checks.push({
              snapshotId: null,
              runId: null,
              check: "store-file",
              ok: false,
              detail: problem.message
            });
        }
        if (snapshots.length === 0 && checks.length === 0) {
          const what = "id" in target ? `snapshot ${target.id}` : "runId" in target ? `run ${target.runId}` : `the home ${this.store.home}`;
          throw new NothingToVerifyError(
            `${what} has no snapshots to verify; check --home (or AGENTGATE_HOME) and the run id: a gate that verifies nothing must not pass`,
            { details: { home: this.store.home } }
          );
        }
        const runs2 = /* @__PURE__ */ new Map();
        const local = [];
        for (const snapshot of snapshots) {
          if (!runs2.has(snapshot.runId))
            runs2.set(snapshot.runId, await this.store.loadRun(snapshot.runId).catch(() => null));
          const here = await this.withLocalPaths(snapshot);
          local.push(here);
          checks.push(...await verifySnapshot(here, runs2.get(snapshot.runId) ?? null, this.gitOptions()));
        }
        if (!("id" in target)) {
          for (const [runId, run] of runs2) {
            const linked = local.filter((s) => s.runId === runId && (run?.snapshotIds.includes(s.id) ?? false));
            checks.push(...await continuityChecks(linked, this.gitOptions()));
          }
        }
        return { ok: checks.every((c) => c.ok), checks };
      }
      /** Removes the snapshot's metadata and its link from the run. The commit and its ref stay in git. */
      async delete(idOrSha) {
        const id = await this.getSnapshot(idOrSha).then(
          (snapshot) => snapshot.id,
          (error2) => {
            if (error2 instanceof StoreCorruptError || error2 instanceof SnapshotNotFoundError && SafeId.safeParse(idOrSha).success)
              return idOrSha;
            throw error2;
          }
        );
        const stored = await this.store.load(id).catch(() => null);
        await this.store.delete(id);
        if (stored !== null) await this.removeArtifact(stored);
        return id;
      }
      /** The snapshot's own patch artifact (the recorded one, checked by its sha256), and its iteration directory if that is left empty. */
      async removeArtifact(snapshot) {
        const local = await this.withLocalPaths(snapshot);
        if (local.patchPath === null || local.patchSha256 === null) return;
        if (await sha256File(local.patchPath).catch(() => null) !== local.patchSha256) return;
        await rm9(local.patchPath, { force: true });
        await rmdir(dirname5(local.patchPath)).catch(() => void 0);
      }
      /**
       * Applies the snapshot's whole change (before..after, the agent's own commits included) as one
       * commit on `onto` (default: the current branch).
       */
      async cherryPick(idOrSha, onto) {
        const snapshot = await this.getSnapshot(idOrSha);
        if (snapshot.beforeSha === snapshot.afterSha) {
          throw new EmptySnapshotError(
            `snapshot ${snapshot.id} changed nothing; there is nothing to cherry-pick`,
            { details: { id: snapshot.id } }
          );
        }
        const repo = await openRepo(snapshot.workspace, this.gitOptions());
        return withRepoLock(repo, this.options.lockTimeoutMs, async () => {
          const message = snapshot.commitMessage || `[agentgate] Run ${snapshot.runId} iteration ${snapshot.iteration}
`;
          const squashed = await commitTree(
            repo,
            await getTree(repo, snapshot.afterSha),
            [snapshot.beforeSha],
            message
          );
          const ignore = await workspaceExcludes(repo.topLevel, this.options);
          return cherryPick2(repo, squashed, { ignore, ...onto === void 0 ? {} : { onto } });
        });
      }
      /**
       * Paths as this machine sees them, for a record that may come from another machine (a copied
       * store): the patch artifact is looked for under the artifacts directory in use (`--artifacts-dir`,
       * `$AGENTGATE_ARTIFACTS_DIR` or `<home>/artifacts`) when it is not where it was recorded, and the
       * local workspace (`-C`) stands in for a recorded workspace that is not here. Costs no file
       * check when the record was made with this home.
       */
      async withLocalPaths(snapshot) {
        const workspace = await this.localWorkspaceFor(snapshot.workspace);
        let out = workspace === snapshot.workspace ? snapshot : { ...snapshot, workspace };
        if (out.patchPath === null) return out;
        const here = patchPath(this.options.artifactsDir, out.runId, out.iteration);
        if (here === out.patchPath) return out;
        const found = await stat6(here).then(
          (s) => s.isFile(),
          () => false
        );
        if (found) out = { ...out, patchPath: here };
        return out;
      }
      /** A run record with this machine's workspace (see withLocalPaths). */
      async withLocalWorkspace(run) {
        const workspace = await this.localWorkspaceFor(run.workspace);
        return workspace === run.workspace ? run : { ...run, workspace };
      }
      async localWorkspaceFor(recorded) {
        const local = this.options.localWorkspace;
        if (local === void 0 || local === recorded) return recorded;
        return await stat6(recorded).then(
          (s) => s.isDirectory(),
          () => false
        ) ? recorded : local;
      }
      gitOptions() {
        return { identity: this.options.identity, timeoutMs: this.options.gitTimeoutMs };
      }
      /** Opens the workspace's repository, or initialises one; with onDirty "error", files there refuse first (nothing is created). */
      async openOrInit(workspace, onDirty, init) {
        try {
          return { repo: await openRepo(workspace, this.gitOptions()), nested: [] };
        } catch (cause) {
          if (!(cause instanceof NotARepositoryError)) throw cause;
          const dir = typeof cause.details.workspace === "string" ? cause.details.workspace : workspace;
          assertSafeWorkspace(dir);
          if (!init) {
            throw new NotARepositoryError(
              `${dir} is not a git repository; initialise it first, or let "before" do it (--init, or the init option), which commits the files there as the first commit`,
              {
                cause,
                details: { workspace: dir }
              }
            );
          }
          if (onDirty === "error" && await hasUserFiles(dir, this.options)) {
            throw new DirtyWorkspaceError(
              `${dir} is not a repository yet and holds files that the first commit would take; use --on-dirty wip-commit, or commit them yourself`,
              {
                details: { workspace: dir }
              }
            );
          }
          const repo = await initRepo(workspace, DEFAULT_BRANCH, this.gitOptions());
          return { repo, nested: await excludeNestedRepositories(repo) };
        }
      }
      /**
       * Where the iteration started: the given state, else `--before SHA`, else the run's recorded
       * before state, which one `after` uses up (a second needs a new `before`: NO_BEFORE_STATE).
       * `usesBefore` tells whether the start is the run's before state.
       */
      async startOf(repo, runId, iteration, given, beforeRev, state) {
        const run = await this.store.loadRun(runId);
        assertRunWorkspace(run, runId, repo.topLevel);
        if (given) return { ...given, usesBefore: true };
        if (beforeRev !== void 0)
          return {
            sha: await resolveRevision(repo, beforeRev),
            branch: run?.before?.branch ?? state.branch ?? DEFAULT_BRANCH,
            usesBefore: false
          };
        if (!run?.before) {
          throw new RunNotFoundError(
            `run ${runId} has no recorded before state; call "before --run ${runId}" first or pass --before SHA`,
            { details: { runId } }
          );
        }
        const usedBy = run.beforeUsedBy;
        if (usedBy && iteration > usedBy.iteration) {
          throw new NoBeforeStateError(
            `the before state of run ${runId} was used by iteration ${usedBy.iteration} (snapshot ${usedBy.snapshotId}); call "before --run ${runId}" before each iteration, or pass --before SHA`,
            {
              details: { runId, usedBy }
            }
          );
        }
        return { ...run.before, usesBefore: true };
      }
      /**
       * One snapshot per iteration: a second one would replace the first one's patch artifact and
       * iteration ref, and the first would no longer verify. The exception is a retry of the very same
       * capture (same before, same message, HEAD still at its after commit, nothing new in the work
       * tree), as an orchestrator makes when the first call was killed before it could report: that
       * gets the stored snapshot back.
       */
      async assertIterationFree(runId, iteration, now) {
        if (await this.store.loadRun(runId) === null) return null;
        const { snapshots } = await this.store.inspectRun(runId);
        const taken = snapshots.find((s) => s.iteration === iteration);
        const sameCapture = taken !== void 0 && taken.beforeSha === now.beforeSha && taken.afterSha === now.headSha && (taken.commitMessage === now.message || taken.commitMessage === "" && taken.afterSha === taken.beforeSha) && !await now.isDirty();
        if (sameCapture) return taken;
        if (taken) {
          throw new IterationExistsError(
            `iteration ${iteration} of run ${runId} is already captured as snapshot ${taken.id}; capture the next iteration, or delete ${taken.id} first`,
            {
              details: { runId, iteration, existing: taken.id }
            }
          );
        }
        const last = Math.max(-1, ...snapshots.map((s) => s.iteration));
        if (iteration < last) {
          throw new IterationOutOfOrderError(
            `run ${runId} is already at iteration ${last}; iterations only go forward, so capture ${last + 1} or later`,
            { details: { runId, iteration, last } }
          );
        }
        return null;
      }
      /** The iteration must build on its before SHA: a rewritten history cannot be snapshotted honestly. */
      async assertDescends(repo, beforeSha, state) {
        const fail2 = (why) => {
          throw new HistoryRewrittenError(
            `${why}; the iteration's history was rewritten. Start a new iteration with "before"`,
            {
              details: { beforeSha, head: state.sha }
            }
          );
        };
        const head = state.sha;
        if (!head) return fail2("HEAD has no commit any more");
        if (head === beforeSha) return;
        const [exists4, ancestor] = await Promise.all([
          objectExists(repo, beforeSha),
          isAncestor(repo, beforeSha, head).catch(() => false)
        ]);
        if (!exists4) fail2(`before commit ${beforeSha} no longer exists`);
        if (!ancestor) fail2(`before commit ${beforeSha} is not an ancestor of HEAD`);
      }
    };
  }
});

// src/snapshotter/demo.ts
import { mkdtemp as mkdtemp4, rename as rename3, rm as rm10, writeFile as writeFile3, mkdir as mkdir4 } from "node:fs/promises";
import { tmpdir as tmpdir4 } from "node:os";
import { dirname as dirname6, join as join16 } from "node:path";
async function runDemo(opts = {}) {
  const root = await mkdtemp4(join16(tmpdir4(), "agentgate-demo-"));
  try {
    return { ...await demoIn(root), kept: opts.keep === true };
  } finally {
    if (opts.keep !== true) await rm10(root, { recursive: true, force: true });
  }
}
async function demoIn(root) {
  const workspace = join16(root, "workspace");
  const home = join16(root, "home");
  await put(workspace, "README.md", "# demo\n\nA throwaway workspace.\n");
  await put(workspace, "NOTES.txt", "uncommitted notes from before the run\n");
  const snapshotter = new Snapshotter({
    home,
    artifactsDir: join16(home, "artifacts"),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 6e4,
    lockTimeoutMs: 1e4,
    onDirty: "wip-commit"
  });
  const runId = "demo-run";
  const iterations = [];
  for (const [index, step] of ITERATIONS.entries()) {
    const before2 = await snapshotter.captureBeforeState(workspace, { runId, init: true });
    await step.edit(workspace);
    const s = await snapshotter.captureAfterState(workspace, before2, {
      runId,
      iteration: index + 1,
      taskPrompt: step.task,
      gatePlanSource: "demo"
    });
    iterations.push({
      iteration: s.iteration,
      id: s.id,
      filesChanged: s.filesChanged,
      insertions: s.insertions,
      deletions: s.deletions,
      beforeSha: s.beforeSha,
      afterSha: s.afterSha,
      patchPath: s.patchPath,
      task: step.task
    });
  }
  const report3 = await snapshotter.verify({ runId });
  const failed = report3.checks.filter((c) => !c.ok).length;
  return {
    workspace,
    home,
    runId,
    iterations,
    verify: { ok: report3.ok, checks: report3.checks.length, failed }
  };
}
async function put(root, rel, content) {
  const path = join16(root, rel);
  await mkdir4(dirname6(path), { recursive: true });
  await writeFile3(path, content);
}
var ITERATIONS;
var init_demo = __esm({
  "src/snapshotter/demo.ts"() {
    "use strict";
    init_config();
    init_snapshotter();
    ITERATIONS = [
      {
        task: "Add a greeting module and document it",
        edit: async (ws) => {
          await put(ws, "src/greet.js", "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n");
          await put(
            ws,
            "README.md",
            "# demo\n\nA throwaway workspace.\n\nUse `greet(name)` from src/greet.js.\n"
          );
        }
      },
      {
        task: "Rename the module, add a logo, and tweak the greeting",
        edit: async (ws) => {
          await rename3(join16(ws, "src/greet.js"), join16(ws, "src/hello.js"));
          await put(
            ws,
            "src/hello.js",
            "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n\nexport const version = 2;\n"
          );
          await put(
            ws,
            "assets/logo.png",
            Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 255, 0, 16, 128])
          );
        }
      },
      {
        task: "Remove the notes file and update the logo",
        edit: async (ws) => {
          await rm10(join16(ws, "NOTES.txt"));
          await put(
            ws,
            "assets/logo.png",
            Buffer.from([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4, 254, 0, 32, 64])
          );
        }
      }
    ];
  }
});

// src/cli/commands/demo.ts
var demo_exports = {};
__export(demo_exports, {
  DEMO_COMMAND: () => DEMO_COMMAND
});
var DEMO_COMMAND;
var init_demo2 = __esm({
  "src/cli/commands/demo.ts"() {
    "use strict";
    init_demo();
    init_output();
    init_spec();
    DEMO_COMMAND = defineCommand({
      name: "demo",
      usage: "demo",
      summary: "Run the main job end to end on a throwaway workspace and home (your ~/.agentgate is not touched).",
      description: "The throwaway workspace and home are removed when the demo ends, unless --keep leaves them for a look.",
      options: {
        keep: { type: "boolean", description: "keep the throwaway workspace and home, and say where they are" }
      },
      positionals: { required: [] },
      examples: ["demo", "demo --keep --json"],
      async run(_ctx, values) {
        const summary = await runDemo({ keep: values.keep });
        return {
          json: summary,
          exitCode: summary.verify.ok ? 0 : 1,
          human: (colour) => {
            const rows = summary.iterations.map((i) => [
              String(i.iteration),
              String(i.filesChanged),
              `+${i.insertions}`,
              `-${i.deletions}`,
              short(i.beforeSha),
              short(i.afterSha),
              i.patchPath ?? "-"
            ]);
            const verdict = summary.verify.ok ? paint(`verify: all ${summary.verify.checks} checks passed`, "green", colour) : paint(
              `verify: ${summary.verify.failed} of ${summary.verify.checks} checks failed`,
              "red",
              colour
            );
            return [
              `Run ${summary.runId} in ${summary.workspace}`,
              "",
              table(["ITER", "FILES", "+", "-", "BEFORE", "AFTER", "PATCH"], rows),
              "",
              verdict,
              summary.kept ? `Workspace and home kept for a look: ${summary.workspace}, ${summary.home}` : "The throwaway workspace and home were removed (demo --keep keeps them)."
            ].join("\n");
          }
        };
      }
    });
  }
});

// types/sharing.ts
var RECORD_FORMAT, RECORD_FILE, PatchRecipe, TravellingSnapshot, RecordFile, PushResult, RefusedRecord, ReceiveResult, ExportResult, RebuiltIndex;
var init_sharing = __esm({
  "types/sharing.ts"() {
    "use strict";
    init_zod();
    init_snapshot();
    RECORD_FORMAT = "agentgate-record/1";
    RECORD_FILE = "record.json";
    PatchRecipe = object({
      /** Relative to the artifacts directory: `<runId>/iteration-<n>/patch.diff`. */
      file: string2().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\/iteration-\d{1,15}\/patch\.diff$/),
      args: array(string2().regex(/^-/).max(200)).max(64)
    }).strict();
    TravellingSnapshot = Snapshot.pick({
      id: true,
      runId: true,
      beforeSha: true,
      afterSha: true,
      patchSha256: true,
      filesChanged: true,
      insertions: true,
      deletions: true,
      createdAt: true,
      files: true,
      skipped: true
    }).extend({
      iteration: number2().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
      // A git branch name never holds a control character (git check-ref-format).
      branch: string2().min(1).max(4096).regex(/^[^\u0000-\u001f\u007f]+$/),
      commitMessage: string2().max(1e6),
      task: string2().max(1e7).nullable(),
      gate: string2().max(1e6).nullable()
    }).strict();
    RecordFile = object({
      format: literal(RECORD_FORMAT),
      snapshot: TravellingSnapshot,
      /** The workspace where the run was recorded (informational: never used as a path here). */
      workspace: string2().min(1).max(4096),
      /** Null when the iteration changed nothing (no patch). */
      patch: PatchRecipe.nullable(),
      run: object({ createdAt: IsoDate, before: BeforeState.nullable() }).strict()
    }).strict();
    PushResult = object({
      remote: string2(),
      runs: array(SafeId),
      refs: number2().int().nonnegative(),
      /** Refs the remote took now (created or moved forward). */
      updated: array(string2()),
      /** Refs the remote already had with the same content. */
      upToDate: array(string2())
    });
    RefusedRecord = object({ ref: string2(), reason: string2() });
    ReceiveResult = object({
      remote: string2().optional(),
      file: string2().optional(),
      runs: array(SafeId),
      /** Snapshots rebuilt in the local home by this call (0 when nothing was new). */
      snapshots: number2().int().nonnegative(),
      /** Records already present and unchanged. */
      unchanged: number2().int().nonnegative(),
      refused: array(RefusedRecord)
    });
    ExportResult = object({
      file: string2(),
      runs: array(SafeId),
      refs: number2().int().nonnegative()
    });
    RebuiltIndex = object({ records: record(Sha, SafeId) });
  }
});

// src/git/record-objects.ts
import { createHash as createHash3 } from "node:crypto";
async function objectFormat(repo) {
  const out = (await runGit(repo, ["rev-parse", "--show-object-format"])).stdout.trim();
  if (out !== "sha1" && out !== "sha256")
    throw new GitOutputUnparseableError(`unknown object format ${JSON.stringify(out)}`, {
      details: { format: out }
    });
  return out;
}
function objectId(format, type, content) {
  return createHash3(format).update(`${type} ${content.length}\0`).update(content).digest("hex");
}
function treeContent(entries) {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  return Buffer.concat(
    sorted.flatMap((e) => [Buffer.from(`100644 ${e.name}\0`), Buffer.from(e.blob, "hex")])
  );
}
async function writeObjects(repo, type, files) {
  if (files.length === 0) return;
  for (const f of files)
    if (/[\n\r]/.test(f.path))
      throw new InvalidArgumentError(`object file path ${JSON.stringify(f.path)} holds a newline`, {
        details: { path: f.path }
      });
  const out = (await runGit(repo, ["hash-object", "-w", "-t", type, "--stdin-paths"], {
    input: `${files.map((f) => f.path).join("\n")}
`
  })).stdout.split("\n").filter(Boolean);
  files.forEach((f, i) => {
    if (out[i] !== f.id)
      throw new GitFailedError(`git hash-object wrote ${out[i] ?? "nothing"} where ${f.id} was expected`, {
        details: { path: f.path, expected: f.id, actual: out[i] }
      });
  });
}
async function listRefsWithParents(repo, prefix) {
  if (!/^refs\/[^\0\n\r ]+$/.test(prefix))
    throw new InvalidArgumentError(`${JSON.stringify(prefix)} is not a ref prefix`, { details: { prefix } });
  const { stdout } = await runGit(repo, [
    "for-each-ref",
    "--format=%(objectname) %(objecttype) %(refname) %(parent)",
    prefix
  ]);
  return parseRefsWithParents(stdout);
}
function parseRefsWithParents(stdout) {
  return stdout.split("\n").filter(Boolean).map((line) => {
    const [sha = "", type = "", ref = "", ...parents] = line.split(" ");
    return {
      sha: assertGitId(sha, "for-each-ref"),
      type,
      ref,
      parents: parents.filter(Boolean).map((p) => assertGitId(p, "for-each-ref"))
    };
  });
}
async function batchCheck(repo, names) {
  if (names.length === 0) return [];
  const out = await runGitBuffer(repo, ["cat-file", "--batch-check"], {
    input: names.map((n) => `${n}
`).join("")
  });
  return parseBatchCheck(names, out.stdout.toString("utf8"));
}
async function readBlobs(repo, ids) {
  const out = /* @__PURE__ */ new Map();
  if (ids.length === 0) return out;
  for (const id of ids)
    if (!isFullId(id))
      throw new InvalidArgumentError(`${JSON.stringify(id)} is not a full object id`, { details: { id } });
  const buf = (await runGitBuffer(repo, ["cat-file", "--batch"], { input: ids.map((id) => `${id}
`).join("") })).stdout;
  let at = 0;
  for (const id of ids) {
    const nl = buf.indexOf(10, at);
    const header = buf.subarray(at, nl).toString("utf8");
    const m = /^([0-9a-f]+) blob (\d+)$/.exec(header);
    if (!m || m[1] !== id)
      throw new GitOutputUnparseableError(
        `unexpected cat-file --batch answer ${JSON.stringify(header.slice(0, 100))} for ${id}`,
        { details: { id } }
      );
    const size = Number(m[2]);
    out.set(id, buf.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return out;
}
var init_record_objects = __esm({
  "src/git/record-objects.ts"() {
    "use strict";
    init_errors();
    init_batch_check();
    init_ids2();
    init_runner();
  }
});

// src/git/transport.ts
import { isAbsolute as isAbsolute4, resolve as resolve6 } from "node:path";
import { stat as stat7 } from "node:fs/promises";
function checkRemoteUrl(url) {
  const refuse = (why) => {
    throw new UnsafeRemoteError(
      `remote ${JSON.stringify(url.slice(0, 200))} is refused: ${why}; use a file path or a file://, git://, ssh:// or https:// URL`,
      {
        details: { url: url.slice(0, 500) }
      }
    );
  };
  if (url === "" || url.startsWith("-") || /[\u0000-\u001f\u007f]/.test(url))
    return refuse('it is empty, starts with "-" or holds control characters');
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(url))
    return refuse(`the "${url.slice(0, url.indexOf("::"))}::" remote helper runs a program`);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    if (!SCHEMES.has(name)) return refuse(`the ${name}:// transport is not allowed`);
    if (name === "file") return "file";
    if (name === "https" || name === "git") return name;
    return "ssh";
  }
  const colon = url.indexOf(":");
  const slash = url.indexOf("/");
  if (colon > 0 && (slash < 0 || colon < slash)) return "ssh";
  return "local";
}
async function resolveRemote(repo, nameOrUrl, cwd) {
  const resolved = await resolveRemoteUrl(repo, nameOrUrl, cwd);
  if (checkRemoteUrl(resolved.url) === "git") {
    const proxies = (await runGit(repo, ["config", "--get-all", "core.gitProxy"], { okExitCodes: [1] })).stdout.split("\n").filter((v) => v !== "" && !/^none(\s|$)/.test(v));
    if (proxies.length > 0) {
      throw new UnsafeRemoteError(
        `the repository's config sets core.gitProxy, which git would run for ${resolved.url}; remove it or use an ssh:// or https:// URL`,
        { details: { url: resolved.url } }
      );
    }
  }
  return resolved;
}
async function resolveRemoteUrl(repo, nameOrUrl, cwd) {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(nameOrUrl)) {
    const res = await runGit(repo, ["config", "--get", `remote.${nameOrUrl}.url`], { okExitCodes: [1] });
    const url = res.stdout.trim();
    if (res.exitCode === 0 && url !== "") {
      const kind2 = checkRemoteUrl(url);
      return {
        name: nameOrUrl,
        url: kind2 === "local" && !isAbsolute4(url) ? resolve6(repo.topLevel, url) : url
      };
    }
    if (!await isDir(resolve6(cwd, nameOrUrl))) {
      throw new RemoteNotFoundError(
        `no remote named ${JSON.stringify(nameOrUrl)} in ${repo.topLevel}; "git remote -v" lists them, or give a URL`,
        {
          details: { remote: nameOrUrl }
        }
      );
    }
  }
  const kind = checkRemoteUrl(nameOrUrl);
  if (kind === "local") {
    const path = resolve6(cwd, nameOrUrl);
    if (!await isDir(path))
      throw new RemoteNotFoundError(`remote ${path} does not exist; give an existing repository`, {
        details: { remote: path }
      });
    return { name: nameOrUrl, url: path };
  }
  return { name: nameOrUrl, url: nameOrUrl };
}
async function isDir(path) {
  return stat7(path).then(
    (s) => s.isDirectory(),
    () => false
  );
}
function serverProgram(url, name) {
  const kind = checkRemoteUrl(url);
  return kind === "local" || kind === "file" ? `git -c core.hooksPath=/dev/null -c core.fsmonitor=false ${name}` : `git-${name}`;
}
function withTransport(repo) {
  return { ...repo, config: [...repo.config ?? [], ...TRANSPORT_CONFIG] };
}
function parsePushPorcelain(stdout) {
  const out = [];
  for (const line of stdout.split("\n")) {
    const m = /^([ +\-*!=])\t([^\t]*):([^\t]*)\t(.*)$/.exec(line);
    if (m) out.push({ flag: m[1], ref: m[3], summary: m[4] });
  }
  return out;
}
async function pushRefs(repo, url, refspecs) {
  checkRemoteUrl(url);
  for (const spec of refspecs) {
    if (spec.startsWith("+") || spec.startsWith("-") || !/^refs\/agentgate\/[^\s:]+:refs\/agentgate\/[^\s:]+$/.test(spec)) {
      throw new InvalidArgumentError(
        `refusing to push ${JSON.stringify(spec)}: only non-forced refs/agentgate/ refspecs`,
        { details: { refspec: spec } }
      );
    }
  }
  const args = [
    "push",
    "--porcelain",
    "--no-follow-tags",
    "--no-signed",
    `--receive-pack=${serverProgram(url, "receive-pack")}`,
    "--end-of-options",
    url,
    ...refspecs
  ];
  try {
    const res = await runGit(withTransport(repo), args, { okExitCodes: [1] });
    const refs = parsePushPorcelain(res.stdout);
    if (res.exitCode !== 0 && !refs.some((r) => r.flag === "!")) {
      throw new GitFailedError(`git push to ${url} failed without naming a ref`, {
        details: { url, stdout: res.stdout.slice(0, 2e3) }
      });
    }
    return refs;
  } catch (cause) {
    throw unreachable(cause, url);
  }
}
async function fetchRefs(repo, url, refspecs) {
  checkRemoteUrl(url);
  for (const spec of refspecs) {
    if (!/^\+?refs\/agentgate\/[^\s:]+:refs\/agentgate\/incoming\/[^\s:]+$/.test(spec)) {
      throw new InvalidArgumentError(
        `refusing to fetch ${JSON.stringify(spec)}: only into refs/agentgate/incoming/`,
        { details: { refspec: spec } }
      );
    }
  }
  const args = [
    "fetch",
    "--quiet",
    "--no-tags",
    "--no-write-fetch-head",
    "--no-recurse-submodules",
    "--no-auto-gc",
    `--upload-pack=${serverProgram(url, "upload-pack")}`,
    "--end-of-options",
    url,
    ...refspecs
  ];
  try {
    await runGit(withTransport(repo), args);
  } catch (cause) {
    throw unreachable(cause, url);
  }
}
async function listRemoteRefs(repo, url, prefix) {
  checkRemoteUrl(url);
  if (!/^refs\/agentgate\/[A-Za-z0-9._/-]*$/.test(prefix))
    throw new InvalidArgumentError(`refusing to list ${JSON.stringify(prefix)}`, { details: { prefix } });
  try {
    const { stdout } = await runGit(withTransport(repo), [
      "ls-remote",
      "--refs",
      `--upload-pack=${serverProgram(url, "upload-pack")}`,
      "--end-of-options",
      url,
      `${prefix}*`
    ]);
    return parseLsRemote(stdout).filter((r) => r.ref.startsWith(prefix));
  } catch (cause) {
    throw unreachable(cause, url);
  }
}
function parseLsRemote(stdout) {
  const out = [];
  for (const line of stdout.split("\n")) {
    const m = /^([0-9a-f]{40}(?:[0-9a-f]{24})?)\t(refs\/[^\s]+)$/.exec(line);
    if (m) out.push({ sha: m[1], ref: m[2] });
  }
  return out;
}
function unreachable(cause, url) {
  if (cause instanceof GitFailedError && /does not appear to be a git repository|Could not read from remote|repository .* not found|not a git repository|No such file or directory|unable to access/i.test(
    String(cause.details.stderr)
  )) {
    return new RemoteNotFoundError(
      `cannot reach a git repository at ${url}; check the remote's URL and your access`,
      { cause, details: { url, stderr: cause.details.stderr } }
    );
  }
  return cause;
}
async function createBundle(repo, file, refs) {
  await runGit(repo, ["bundle", "create", "--quiet", file, "--stdin"], { input: `${refs.join("\n")}
` });
}
async function verifyBundle(repo, file) {
  const invalid2 = (why, cause) => new BundleInvalidError(
    `${file} is not a usable agentgate bundle: ${why}; use a file written by "export"`,
    { cause, details: { file } }
  );
  try {
    await runGit(withTransport(repo), ["bundle", "verify", "--quiet", file]);
    const heads = (await runGit(withTransport(repo), ["bundle", "list-heads", file])).stdout;
    return heads.split("\n").filter(Boolean).map((line) => {
      const m = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (\S+)$/.exec(line);
      if (!m) throw invalid2(`unexpected line ${JSON.stringify(line.slice(0, 100))} in its list of refs`);
      return { sha: m[1], ref: m[2] };
    });
  } catch (cause) {
    if (cause instanceof BundleInvalidError) throw cause;
    if (cause instanceof GitFailedError)
      throw invalid2(
        String(cause.details.stderr ?? cause.message).split("\n").slice(-2).join(" "),
        cause
      );
    throw cause;
  }
}
var TRANSPORT_CONFIG, SCHEMES;
var init_transport = __esm({
  "src/git/transport.ts"() {
    "use strict";
    init_errors();
    init_runner();
    TRANSPORT_CONFIG = [
      "protocol.allow=never",
      "protocol.file.allow=always",
      "protocol.git.allow=always",
      "protocol.ssh.allow=always",
      "protocol.https.allow=always",
      "core.sshCommand=ssh",
      "ssh.variant=ssh",
      "credential.helper=",
      "core.askPass=",
      "fetch.writeCommitGraph=false",
      "fetch.recurseSubmodules=false",
      "submodule.recurse=false",
      "push.recurseSubmodules=no",
      "push.gpgSign=false"
    ];
    SCHEMES = /* @__PURE__ */ new Set(["https", "ssh", "git", "file", "git+ssh", "ssh+git"]);
  }
});

// src/git/bundle-pack.ts
import { createHash as createHash4 } from "node:crypto";
import { createReadStream as createReadStream2 } from "node:fs";
async function bundlePackIntact(file) {
  let header = Buffer.alloc(0);
  let hash = null;
  let trailerBytes = 20;
  let tail = Buffer.alloc(0);
  let packBytes = 0;
  let magic = Buffer.alloc(0);
  for await (const chunk of createReadStream2(file)) {
    let data = chunk;
    if (header !== null) {
      header = Buffer.concat([header, data]);
      const end = header.indexOf("\n\n");
      if (end === -1) {
        if (header.length > MAX_HEADER_BYTES) return false;
        continue;
      }
      const text = header.subarray(0, end + 1).toString("latin1");
      if (/^@object-format=sha256$/m.test(text)) trailerBytes = 32;
      hash = createHash4(trailerBytes === 32 ? "sha256" : "sha1");
      data = header.subarray(end + 2);
      header = null;
    }
    if (magic.length < 4) magic = Buffer.concat([magic, data.subarray(0, 4 - magic.length)]);
    const joined = Buffer.concat([tail, data]);
    const cut2 = Math.max(0, joined.length - trailerBytes);
    hash?.update(joined.subarray(0, cut2));
    tail = joined.subarray(cut2);
    packBytes += data.length;
  }
  if (hash === null || packBytes < 12 + trailerBytes || magic.toString("latin1") !== "PACK") return false;
  return hash.digest().equals(tail);
}
var MAX_HEADER_BYTES;
var init_bundle_pack = __esm({
  "src/git/bundle-pack.ts"() {
    "use strict";
    MAX_HEADER_BYTES = 64 * 1024 * 1024;
  }
});

// src/sharing/records.ts
function recordRef(runId, iteration, prefix = RECORDS_PREFIX) {
  return `${prefix}${runId}/iteration-${iteration}`;
}
function iterationRef(runId, iteration) {
  return `${RUNS_PREFIX}${runId}/iteration-${iteration}`;
}
function parseRecordRef(ref, prefix) {
  if (!ref.startsWith(prefix)) return null;
  const m = /^([^/]+)\/iteration-(0|[1-9][0-9]{0,14})$/.exec(ref.slice(prefix.length));
  if (!m || !SafeId.safeParse(m[1]).success) return null;
  const iteration = Number(m[2]);
  return Number.isSafeInteger(iteration) ? { runId: m[1], iteration } : null;
}
function relativePatchFile(runId, iteration) {
  return `${runId}/iteration-${iteration}/patch.diff`;
}
function buildRecord(snapshot, run) {
  const before2 = run.before !== null && run.before.sha === snapshot.beforeSha ? run.before : null;
  const changed = snapshot.beforeSha !== snapshot.afterSha;
  return RecordFile.parse({
    format: RECORD_FORMAT,
    snapshot: {
      id: snapshot.id,
      runId: snapshot.runId,
      iteration: snapshot.iteration,
      beforeSha: snapshot.beforeSha,
      afterSha: snapshot.afterSha,
      branch: snapshot.branch,
      commitMessage: snapshot.commitMessage,
      patchSha256: snapshot.patchSha256,
      filesChanged: snapshot.filesChanged,
      insertions: snapshot.insertions,
      deletions: snapshot.deletions,
      createdAt: snapshot.createdAt,
      files: snapshot.files,
      task: snapshot.task ?? null,
      gate: snapshot.gate ?? null,
      ...snapshot.skipped === void 0 ? {} : { skipped: snapshot.skipped }
    },
    workspace: snapshot.recordedWorkspace ?? snapshot.workspace,
    patch: changed ? { file: relativePatchFile(snapshot.runId, snapshot.iteration), args: [...PATCH_RECIPE_ARGS] } : null,
    run: { createdAt: run.createdAt, before: before2 }
  });
}
function recordObjects(format, record2) {
  const blobContent = Buffer.from(`${JSON.stringify(record2, null, 2)}
`);
  const blob = objectId(format, "blob", blobContent);
  const treeBuf = treeContent([{ name: RECORD_FILE, blob }]);
  const tree = objectId(format, "tree", treeBuf);
  const seconds = Math.floor(Date.parse(record2.snapshot.createdAt) / 1e3);
  const who = `agentgate <agentgate@localhost> ${seconds} +0000`;
  const s = record2.snapshot;
  const message = `[agentgate] Record of run ${s.runId} iteration ${s.iteration}

Agentgate-Snapshot: ${s.id}
`;
  const commitBuf = Buffer.from(
    `tree ${tree}
parent ${s.afterSha}
author ${who}
committer ${who}

${message}`
  );
  return {
    blob: { id: blob, content: blobContent },
    tree: { id: tree, content: treeBuf },
    commit: { id: objectId(format, "commit", commitBuf), content: commitBuf }
  };
}
var RECORDS_PREFIX, INCOMING_PREFIX, RUNS_PREFIX, PATCH_RECIPE_ARGS;
var init_records = __esm({
  "src/sharing/records.ts"() {
    "use strict";
    init_sharing();
    init_snapshot();
    init_record_objects();
    init_unified_diff();
    RECORDS_PREFIX = "refs/agentgate/records/";
    INCOMING_PREFIX = "refs/agentgate/incoming/";
    RUNS_PREFIX = "refs/agentgate/runs/";
    PATCH_RECIPE_ARGS = PATCH_ARGS.slice(1);
  }
});

// src/sharing/sharing.ts
import { randomBytes as randomBytes4 } from "node:crypto";
import { mkdir as mkdir5, rm as rm11, stat as stat8, writeFile as writeFile4 } from "node:fs/promises";
import { join as join17, resolve as resolve7 } from "node:path";
function toDelete(r) {
  return { ref: r.ref, oldSha: r.sha };
}
function runsOf(refs) {
  return [
    ...new Set(
      refs.map((r) => parseRecordRef(r, RECORDS_PREFIX)?.runId).filter((r) => r !== void 0)
    )
  ].sort();
}
function dedupe(items) {
  const seen = /* @__PURE__ */ new Set();
  return items.filter((i) => seen.has(i.id) ? false : (seen.add(i.id), true));
}
async function exists2(path) {
  return stat8(path).then(
    () => true,
    () => false
  );
}
var MAX_RECORD_BYTES, MAX_REFSPECS, Sharing;
var init_sharing2 = __esm({
  "src/sharing/sharing.ts"() {
    "use strict";
    init_sharing();
    init_errors();
    init_record_objects();
    init_repo();
    init_refs();
    init_transport();
    init_unified_diff();
    init_atomic();
    init_json_file();
    init_lock();
    init_repo_lock();
    init_bundle_pack();
    init_paths();
    init_snapshot_store();
    init_records();
    MAX_RECORD_BYTES = 16 * 1024 * 1024;
    MAX_REFSPECS = 2e3;
    Sharing = class {
      constructor(options) {
        this.options = options;
        this.store = new SnapshotStore(options.home, { lockTimeoutMs: options.lockTimeoutMs });
      }
      options;
      store;
      /** Publishes the selected runs' records to a remote (default `origin`). PUSH_REJECTED when the remote holds another record for an iteration. */
      async push(sel, remoteName = "origin", cwd = process.cwd()) {
        const repo = await this.open(sel.workspace);
        const remote = await resolveRemote(repo, remoteName, cwd);
        const { runs: runs2, refs } = await this.materialise(repo, sel);
        const count = sel.all ? (await listRefs(repo, RECORDS_PREFIX)).length : refs.length;
        if (count === 0) return { remote: remote.name, runs: runs2, refs: 0, updated: [], upToDate: [] };
        const specs = sel.all ? [`${RECORDS_PREFIX}*:${RECORDS_PREFIX}*`] : runs2.map((r) => `${RECORDS_PREFIX}${r}/*:${RECORDS_PREFIX}${r}/*`);
        const results = await pushRefs(repo, remote.url, specs);
        const updated = results.filter((r) => r.flag === "*" || r.flag === " ").map((r) => r.ref);
        const upToDate = results.filter((r) => r.flag === "=").map((r) => r.ref);
        let rejected = results.filter((r) => r.flag === "!");
        if (rejected.length > 0) {
          const [theirs, ours] = await Promise.all([
            listRemoteRefs(repo, remote.url, RECORDS_PREFIX),
            listRefs(repo, RECORDS_PREFIX)
          ]);
          const remoteSha = new Map(theirs.map((r) => [r.ref, r.sha]));
          const localSha = new Map(ours.map((r) => [r.ref, r.sha]));
          const same = rejected.filter(
            (r) => remoteSha.get(r.ref) !== void 0 && remoteSha.get(r.ref) === localSha.get(r.ref)
          );
          upToDate.push(...same.map((r) => r.ref));
          rejected = rejected.filter((r) => !same.includes(r));
        }
        if (rejected.length > 0) {
          throw new PushRejectedError(
            `the remote already holds other records for ${rejected.length} iteration(s) (${rejected.slice(0, 3).map((r) => r.ref).join(", ")}); nothing was overwritten. Fetch them to compare, or publish under another run id`,
            {
              details: {
                remote: remote.name,
                rejected: rejected.map((r) => ({ ref: r.ref, summary: r.summary })),
                updated,
                upToDate
              }
            }
          );
        }
        return {
          remote: remote.name,
          runs: sel.all ? runsOf(results.map((r) => r.ref)) : runs2,
          refs: results.length,
          updated,
          upToDate
        };
      }
      /** Fetches records from a remote (only what is new) and rebuilds them in the local home. */
      async fetch(sel, remoteName = "origin", cwd = process.cwd()) {
        if (sel.runId !== void 0) assertSafeId(sel.runId, "run id");
        const repo = await this.open(sel.workspace);
        const remote = await resolveRemote(repo, remoteName, cwd);
        const prefix = sel.runId === void 0 ? RECORDS_PREFIX : `${RECORDS_PREFIX}${sel.runId}/`;
        const result = await this.receive(
          repo,
          () => listRemoteRefs(repo, remote.url, prefix),
          (r, specs) => fetchRefs(r, remote.url, specs)
        );
        return { remote: remote.name, ...result };
      }
      /** Writes the selected runs' records as one bundle file (atomically). */
      async export(sel, file, cwd = process.cwd()) {
        const repo = await this.open(sel.workspace);
        const { runs: runs2 } = await this.materialise(repo, sel);
        const all = await listRefs(repo, RECORDS_PREFIX);
        const chosen = sel.all ? all : all.filter((r) => runs2.some((run) => r.ref.startsWith(`${RECORDS_PREFIX}${run}/`)));
        if (chosen.length === 0)
          throw new RunNotFoundError(
            `no run records to export from ${repo.topLevel}; capture a run first, or name one with --run`,
            { details: { workspace: repo.topLevel } }
          );
        const path = resolve7(cwd, file);
        await replaceFileAtomic(
          path,
          (temp) => createBundle(
            repo,
            temp,
            chosen.map((r) => r.ref)
          )
        );
        return { file: path, runs: runsOf(chosen.map((r) => r.ref)), refs: chosen.length };
      }
      /** Verifies a bundle with git, takes its records in and rebuilds them. BUNDLE_INVALID (nothing changed) for a damaged or foreign file. */
      async import(workspace, file, cwd = process.cwd()) {
        const repo = await this.open(workspace);
        const path = resolve7(cwd, file);
        const isFile = await stat8(path).then(
          (s) => s.isFile(),
          () => false
        );
        if (!isFile)
          throw new BundleInvalidError(`${path} is not a file; give the bundle written by "export"`, {
            details: { file: path }
          });
        const heads = await verifyBundle(repo, path);
        if (!await bundlePackIntact(path))
          throw new BundleInvalidError(
            `${path} is truncated or damaged (its pack does not match its checksum); use a whole file written by "export"`,
            { details: { file: path } }
          );
        if (!heads.some((h) => h.ref.startsWith(RECORDS_PREFIX))) {
          throw new BundleInvalidError(
            `${path} holds no agentgate records (no ${RECORDS_PREFIX} refs); use a file written by "export"`,
            { details: { file: path } }
          );
        }
        const records = heads.filter((h) => h.ref.startsWith(RECORDS_PREFIX));
        const result = await this.receive(
          repo,
          async () => records,
          async (r, specs) => {
            try {
              await fetchRefs(r, path, specs);
            } catch (cause) {
              if (cause instanceof GitFailedError)
                throw new BundleInvalidError(
                  `git could not read ${path}: ${String(cause.details.stderr ?? cause.message).slice(0, 300)}`,
                  { cause, details: { file: path } }
                );
              throw cause;
            }
          }
        );
        return { file: path, ...result };
      }
      async open(workspace) {
        return openRepo(workspace, { identity: this.options.identity, timeoutMs: this.options.gitTimeoutMs });
      }
      /** The runs a selection names (records of other workspaces cannot be built here). */
      async selectRuns(repo, sel) {
        if (sel.runId !== void 0) {
          const run = await this.store.loadRun(assertSafeId(sel.runId, "run id"));
          if (run === null)
            throw new RunNotFoundError(
              `no run ${sel.runId} in ${this.store.home}; "runs" lists the recorded ones`,
              { details: { runId: sel.runId } }
            );
          if ((await this.runsHere(repo, [run])).length === 0) {
            throw new RunWorkspaceMismatchError(
              `run ${sel.runId} belongs to ${run.workspace}, not ${repo.topLevel}; give that workspace with -C`,
              {
                details: { runId: sel.runId, workspace: run.workspace, given: repo.topLevel }
              }
            );
          }
          return [run];
        }
        return this.runsHere(repo, (await this.store.listRuns()).runs);
      }
      /**
       * The runs that belong to this repository: recorded here, or (when `-C` named it) recorded in a
       * workspace that is not on this machine, a copied home, whose commits this repository holds. One
       * object check for all of them.
       */
      async runsHere(repo, runs2) {
        const here = runs2.filter((r) => r.workspace === repo.topLevel);
        if (this.options.localWorkspace === void 0) return here;
        const gone = await Promise.all(
          runs2.map(
            async (r) => r.workspace !== repo.topLevel && !await stat8(r.workspace).then(
              (st) => st.isDirectory(),
              () => false
            )
          )
        );
        const orphans = await Promise.all(
          runs2.filter((_, i) => gone[i]).map(async (run) => ({
            run,
            shas: (await this.store.inspectRun(run.runId)).snapshots.map((sn) => sn.afterSha)
          }))
        );
        const found = new Map(
          (await batchCheck(
            repo,
            orphans.flatMap((o) => o.shas.map((sha) => `${sha}^{commit}`))
          )).map((f) => [f.name, f.found])
        );
        const adopted = orphans.filter((o) => o.shas.length > 0 && o.shas.every((sha) => found.get(`${sha}^{commit}`) === true)).map((o) => o.run);
        return runs2.filter((r) => here.includes(r) || adopted.includes(r));
      }
      /**
       * Makes sure every selected run's iteration has its record commit under refs/agentgate/records/:
       * an existing record whose parent is the snapshot's after commit is kept as it is (records are
       * immutable once made); a missing one is written (three hash-object processes and one ref
       * transaction for all of them).
       */
      async materialise(repo, sel) {
        return withRepoLock(repo, this.options.lockTimeoutMs, () => this.materialiseLocked(repo, sel));
      }
      async materialiseLocked(repo, sel) {
        const runs2 = await this.selectRuns(repo, sel);
        const existing = new Map((await listRefsWithParents(repo, RECORDS_PREFIX)).map((r) => [r.ref, r]));
        const format = await objectFormat(repo);
        const pending = [];
        const refs = [];
        for (const run of runs2) {
          const { snapshots } = await this.store.inspectRun(run.runId);
          const latest = /* @__PURE__ */ new Map();
          for (const s of snapshots) latest.set(s.iteration, s);
          for (const snapshot of latest.values()) {
            const ref = recordRef(run.runId, snapshot.iteration);
            refs.push(ref);
            const have = existing.get(ref);
            if (have && have.type === "commit" && have.parents.length === 1 && have.parents[0] === snapshot.afterSha)
              continue;
            pending.push({
              ref,
              objects: recordObjects(format, buildRecord(snapshot, run)),
              old: have?.sha ?? null
            });
          }
        }
        if (pending.length > 0) await this.writeRecordObjects(repo, pending);
        return { runs: runs2.map((r) => r.runId), refs };
      }
      async writeRecordObjects(repo, pending) {
        const dir = join17(layout(this.options.home).home, "tmp", `sharing-${randomBytes4(6).toString("hex")}`);
        await mkdir5(dir, { recursive: true });
        try {
          for (const type of ["blob", "tree", "commit"]) {
            const files = [];
            for (const p of pending) {
              const obj = p.objects[type];
              const path = join17(dir, `${type}-${obj.id}`);
              await writeFile4(path, obj.content);
              files.push({ path, id: obj.id });
            }
            await writeObjects(repo, type, dedupe(files));
          }
        } finally {
          await rm11(dir, { recursive: true, force: true });
        }
        const updates = pending.map((p) => ({
          ref: p.ref,
          newSha: p.objects.commit.id,
          oldSha: p.old
        }));
        try {
          await updateRefs(repo, updates, { message: "agentgate: record" });
        } catch (error2) {
          const now = new Map((await listRefs(repo, RECORDS_PREFIX)).map((r) => [r.ref, r.sha]));
          if (!(error2 instanceof ConcurrentUpdateError) || !updates.every((u) => now.get(u.ref) === u.newSha))
            throw error2;
        }
      }
      /**
       * Takes records in. `list` names the source's records (one ls-remote, or the bundle's heads); only
       * those this repository does not hold already are fetched (`bring`, into refs/agentgate/incoming/),
       * so a fetch with nothing new transfers nothing. Each record is then checked and rebuilt into the
       * home, and only then moved to refs/agentgate/records/. Serialised per home; what a killed call
       * left in incoming/ is swept first.
       */
      async receive(repo, list3, bring) {
        const lockPath = join17(layout(this.options.home).locks, "sharing.lock");
        return withLock(
          lockPath,
          { timeoutMs: this.options.lockTimeoutMs, purpose: "sharing" },
          () => withRepoLock(repo, this.options.lockTimeoutMs, async () => {
            await deleteRefs(repo, (await listRefs(repo, INCOMING_PREFIX)).map(toDelete));
            const source = await list3();
            const local = await listRefsWithParents(repo, RECORDS_PREFIX);
            const localSha = new Map(local.map((r) => [r.ref, r.sha]));
            const refused = [];
            const wanted = source.filter((r) => {
              if (parseRecordRef(r.ref, RECORDS_PREFIX) !== null) return true;
              refused.push({
                ref: r.ref,
                reason: "not a record ref name (refs/agentgate/records/<runId>/iteration-<n>)"
              });
              return false;
            });
            const toFetch = wanted.filter((r) => localSha.get(r.ref) !== r.sha);
            if (toFetch.length > 0) {
              const specs = toFetch.length > MAX_REFSPECS ? [`+${RECORDS_PREFIX}*:${INCOMING_PREFIX}*`] : toFetch.map((r) => `+${r.ref}:${INCOMING_PREFIX}${r.ref.slice(RECORDS_PREFIX.length)}`);
              await bring(repo, specs);
            }
            const incoming = toFetch.length > 0 ? await listRefsWithParents(repo, INCOMING_PREFIX) : [];
            const wantedRefs = new Set(wanted.map((r) => r.ref));
            const held = local.filter((r) => wantedRefs.has(r.ref) && !toFetch.some((t) => t.ref === r.ref)).map((r) => ({ ...r, ref: `${INCOMING_PREFIX}${r.ref.slice(RECORDS_PREFIX.length)}` }));
            try {
              const result = await this.rebuild(
                repo,
                [
                  ...incoming.filter(
                    (r) => wantedRefs.has(`${RECORDS_PREFIX}${r.ref.slice(INCOMING_PREFIX.length)}`)
                  ),
                  ...held
                ],
                local
              );
              return { ...result, refused: [...refused, ...result.refused] };
            } finally {
              await deleteRefs(repo, incoming.map(toDelete));
            }
          })
        );
      }
      indexPath() {
        return join17(layout(this.options.home).home, "sharing", "rebuilt.json");
      }
      /** Checks each incoming record and rebuilds what is new: snapshot, patch artifact, run link, refs. */
      async rebuild(repo, incoming, localRefs) {
        const refused = [];
        const refuse = (ref, reason) => refused.push({ ref: ref.replace(INCOMING_PREFIX, RECORDS_PREFIX), reason });
        const local = new Map(localRefs.map((r) => [r.ref, r]));
        const index = await readJsonFile(this.indexPath(), RebuiltIndex, "sharing index").catch(() => null) ?? {
          records: {}
        };
        const runs2 = /* @__PURE__ */ new Set();
        let unchanged = 0;
        const candidates = [];
        for (const ref of incoming) {
          const name = parseRecordRef(ref.ref, INCOMING_PREFIX);
          if (!name) {
            refuse(ref.ref, "not a record ref name (refs/agentgate/records/<runId>/iteration-<n>)");
            continue;
          }
          if (ref.type !== "commit" || ref.parents.length !== 1) {
            refuse(ref.ref, "not a record commit (one parent: the after commit)");
            continue;
          }
          const mine = local.get(recordRef(name.runId, name.iteration));
          if (mine && mine.sha !== ref.sha) {
            refuse(ref.ref, `conflicts with this repository's record ${mine.sha}; kept the local one`);
            continue;
          }
          const known = index.records[ref.sha];
          if (mine && known !== void 0 && await exists2(this.store.snapshotPath(known))) {
            unchanged += 1;
            runs2.add(name.runId);
            continue;
          }
          candidates.push({ ref, ...name });
        }
        const blobs = await batchCheck(
          repo,
          candidates.map((c) => `${c.ref.sha}:${RECORD_FILE}`)
        );
        const sizeOk = candidates.filter((c, i) => {
          const b = blobs[i];
          if (!b?.found || b.type !== "blob") refuse(c.ref.ref, `has no ${RECORD_FILE}`);
          else if (b.size > MAX_RECORD_BYTES)
            refuse(c.ref.ref, `${RECORD_FILE} is larger than ${MAX_RECORD_BYTES} bytes`);
          else return true;
          return false;
        });
        const idOf = new Map(blobs.filter((b) => b.found).map((b) => [b.name, b.found ? b.id : ""]));
        const contents = await readBlobs(repo, [
          ...new Set(sizeOk.map((c) => idOf.get(`${c.ref.sha}:${RECORD_FILE}`)))
        ]);
        const accepted = [];
        for (const c of sizeOk) {
          const raw = contents.get(idOf.get(`${c.ref.sha}:${RECORD_FILE}`));
          let json;
          try {
            json = JSON.parse(raw.toString("utf8"));
          } catch {
            refuse(c.ref.ref, `${RECORD_FILE} is not JSON`);
            continue;
          }
          const parsed = RecordFile.safeParse(json);
          if (!parsed.success) {
            refuse(
              c.ref.ref,
              `${RECORD_FILE} does not match the record schema: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`
            );
            continue;
          }
          const rec = parsed.data;
          const s = rec.snapshot;
          const why = s.runId !== c.runId || s.iteration !== c.iteration ? `it describes run ${s.runId} iteration ${s.iteration}` : c.ref.parents[0] !== s.afterSha ? "its parent is not the after commit it names" : rec.patch === null !== (s.beforeSha === s.afterSha) ? "its patch recipe does not fit its commits" : rec.patch !== null && (rec.patch.file !== relativePatchFile(c.runId, c.iteration) || rec.patch.args.join(" ") !== PATCH_RECIPE_ARGS.join(" ")) ? "its patch recipe is not the one this version writes" : null;
          if (why !== null) refuse(c.ref.ref, why);
          else accepted.push({ ref: c.ref, record: rec });
        }
        const { done, kept } = await this.rebuildAccepted(repo, accepted, refuse, index);
        for (const a of [...done, ...kept]) runs2.add(a.record.snapshot.runId);
        await writeJsonAtomic(this.indexPath(), index);
        return { runs: [...runs2].sort(), snapshots: done.length, unchanged: unchanged + kept.length, refused };
      }
      async rebuildAccepted(repo, accepted, refuse, index) {
        if (accepted.length === 0) return { done: [], kept: [] };
        const iterationRefs = new Map((await listRefs(repo, "refs/agentgate/runs/")).map((r) => [r.ref, r.sha]));
        const trees = await batchCheck(
          repo,
          accepted.flatMap((a) => [
            `${a.record.snapshot.beforeSha}^{tree}`,
            `${a.record.snapshot.afterSha}^{tree}`
          ])
        );
        const done = [];
        const kept = [];
        const refUpdates = [];
        const iterations = /* @__PURE__ */ new Map();
        for (const [i, a] of accepted.entries()) {
          const s = a.record.snapshot;
          const [from, to] = [trees[2 * i], trees[2 * i + 1]];
          if (!from?.found || !to?.found) {
            refuse(a.ref.ref, "its before or after commit is not in the repository");
            continue;
          }
          const stored = await this.store.load(s.id).catch(() => null);
          if (stored !== null && (stored.runId !== s.runId || stored.iteration !== s.iteration || stored.afterSha !== s.afterSha)) {
            refuse(a.ref.ref, `snapshot id ${s.id} is already used by another snapshot here`);
            continue;
          }
          const run = await this.store.loadRun(s.runId).catch(() => null);
          if (run !== null && run.workspace !== repo.topLevel) {
            refuse(a.ref.ref, `run ${s.runId} already exists here for another workspace (${run.workspace})`);
            continue;
          }
          if (run !== null && run.createdAt !== a.record.run.createdAt) {
            refuse(
              a.ref.ref,
              `run ${s.runId} here is another run (started ${run.createdAt}, the record's run ${a.record.run.createdAt}); fetch into another home, or publish under another run id`
            );
            continue;
          }
          if (run !== null && stored === null) {
            if (!iterations.has(s.runId))
              iterations.set(
                s.runId,
                new Map((await this.store.inspectRun(s.runId)).snapshots.map((o) => [o.iteration, o.id]))
              );
            const other = iterations.get(s.runId)?.get(s.iteration);
            if (other !== void 0 && other !== s.id) {
              refuse(
                a.ref.ref,
                `iteration ${s.iteration} of run ${s.runId} is already recorded here as ${other}`
              );
              continue;
            }
          }
          const itRef = iterationRef(s.runId, s.iteration);
          const itSha = iterationRefs.get(itRef);
          if (itSha !== void 0 && itSha !== s.afterSha) {
            refuse(a.ref.ref, `${itRef} points at ${itSha}, not at the record's after commit`);
            continue;
          }
          const patch3 = a.record.patch === null ? null : patchPath(this.options.artifactsDir, s.runId, s.iteration);
          const patchThere = patch3 === null || await exists2(patch3);
          const here = stored !== null && run !== null && run.snapshotIds.includes(s.id) && patchThere;
          if (patch3 !== null && (stored === null || !patchThere)) {
            await writeTreeDiffToFile(repo, { from: from.id, to: to.id }, patch3);
          }
          if (run === null)
            await this.store.updateRun(s.runId, repo.topLevel, (cur) => ({
              ...cur,
              createdAt: a.record.run.createdAt
            }));
          if (stored === null) {
            const snapshot = {
              ...s,
              patchPath: patch3,
              workspace: repo.topLevel,
              ref: itRef,
              recordedWorkspace: a.record.workspace
            };
            await this.store.save(snapshot);
          }
          await this.store.linkSnapshot(s.runId, repo.topLevel, s.id, s.iteration);
          await this.store.updateRun(s.runId, repo.topLevel, (cur) => {
            const before2 = a.record.run.before;
            const later = cur.before === null || before2 !== null && before2.capturedAt > cur.before.capturedAt;
            const next = {
              ...cur,
              before: before2 !== null && later ? before2 : cur.before,
              ...a.record.workspace !== cur.workspace ? { recordedWorkspace: a.record.workspace } : {}
            };
            return JSON.stringify(next) === JSON.stringify(cur) ? null : next;
          });
          iterations.get(s.runId)?.set(s.iteration, s.id);
          if (itSha === void 0) refUpdates.push({ ref: itRef, newSha: s.afterSha, oldSha: null });
          const rec = recordRef(s.runId, s.iteration);
          refUpdates.push({ ref: rec, newSha: a.ref.sha, oldSha: null });
          (here ? kept : done).push(a);
        }
        const present = new Map((await listRefs(repo, RECORDS_PREFIX)).map((r) => [r.ref, r.sha]));
        await updateRefs(
          repo,
          refUpdates.filter((u) => present.get(u.ref) !== u.newSha),
          { message: "agentgate: fetched record" }
        );
        for (const a of [...done, ...kept]) index.records[a.ref.sha] = a.record.snapshot.id;
        return { done, kept };
      }
    };
  }
});

// src/cli/commands/sharing.ts
var sharing_exports = {};
__export(sharing_exports, {
  SHARING_COMMANDS: () => SHARING_COMMANDS
});
function sharing(ctx) {
  return new Sharing(ctx.serviceOptions);
}
function selection(ctx, values) {
  if (values.run !== void 0 && values.all) throw new UsageError("give --run ID or --all, not both");
  return {
    workspace: ctx.workspace,
    ...values.run === void 0 ? {} : { runId: values.run },
    ...values.all ? { all: true } : {}
  };
}
function receiveResult(result, source) {
  return {
    json: result,
    human: () => [
      `Rebuilt ${result.snapshots} snapshot(s) of ${result.runs.length} run(s) ${source}; ${result.unchanged} already here.`,
      ...result.refused.map((r) => printable(`refused ${r.ref}: ${r.reason}`))
    ].join("\n")
  };
}
var SELECT, REMOTE, push, fetch, exportCommand, importCommand, SHARING_COMMANDS;
var init_sharing3 = __esm({
  "src/cli/commands/sharing.ts"() {
    "use strict";
    init_errors();
    init_sharing2();
    init_output();
    init_spec();
    SELECT = {
      run: { type: "string", valueName: "ID", description: "only this run" },
      all: {
        type: "boolean",
        description: "every run record in the repository, also those fetched from elsewhere"
      }
    };
    REMOTE = {
      type: "string",
      valueName: "NAME|URL",
      description: "a configured remote or a URL (file, git, ssh or https only)",
      default: "origin"
    };
    push = defineCommand({
      name: "push",
      usage: "push [--run ID | --all] [--remote NAME|URL]",
      summary: "Publish runs under refs/agentgate/records/ with one git push; never forced.",
      description: "Default: every run of this workspace. One ref per iteration; a ref the remote already holds with other content is refused with PUSH_REJECTED and the others still land.",
      options: { ...SELECT, remote: REMOTE },
      positionals: { required: [] },
      examples: ['push --run "$RUN" --json', "push --all --remote https://github.com/acme/shop.git"],
      async run(ctx, values) {
        const result = await sharing(ctx).push(selection(ctx, values), values.remote);
        return {
          json: result,
          human: () => result.refs === 0 ? "No run records to publish." : `Published ${result.runs.length} run(s) to ${result.remote}: ${result.updated.length} record(s) new, ${result.upToDate.length} already there.`
        };
      }
    });
    fetch = defineCommand({
      name: "fetch",
      usage: "fetch [--run ID | --all] [--remote NAME|URL]",
      summary: "Fetch run records from the remote (only what is new) and rebuild them in the local home.",
      description: "Every record is checked before it is used; refused records are listed with the reason.",
      options: { ...SELECT, remote: REMOTE },
      positionals: { required: [] },
      examples: ["fetch --json", 'fetch --run "$RUN" --remote origin'],
      async run(ctx, values) {
        const result = await sharing(ctx).fetch(selection(ctx, values), values.remote);
        return receiveResult(result, `from ${result.remote ?? ""}`);
      }
    });
    exportCommand = defineCommand({
      name: "export",
      usage: "export [--run ID | --all] -o FILE",
      summary: "Write runs (default: every run of this workspace) as one git bundle file.",
      options: {
        ...SELECT,
        output: {
          type: "string",
          short: "o",
          valueName: "FILE",
          description: "the bundle file to write",
          required: true
        }
      },
      positionals: { required: [] },
      examples: ['export --run "$RUN" -o agentgate.bundle'],
      async run(ctx, values) {
        const result = await sharing(ctx).export(selection(ctx, values), values.output);
        return {
          json: result,
          human: () => `Wrote ${result.refs} record(s) of ${result.runs.length} run(s) to ${result.file}.`
        };
      }
    });
    importCommand = defineCommand({
      name: "import",
      usage: "import FILE",
      summary: 'Verify a bundle written by "export", take its records into this repository and rebuild them in the local home.',
      description: "A damaged or foreign file is BUNDLE_INVALID and changes nothing.",
      options: {},
      positionals: { required: ["FILE"] },
      examples: ['import agentgate.bundle -C "$WS"'],
      async run(ctx, _values, [file]) {
        const result = await sharing(ctx).import(ctx.workspace, file);
        return receiveResult(result, `from ${result.file ?? ""}`);
      }
    });
    SHARING_COMMANDS = [push, fetch, exportCommand, importCommand];
  }
});

// types/verify.ts
var VerifyCheck, VerifyReport;
var init_verify2 = __esm({
  "types/verify.ts"() {
    "use strict";
    init_zod();
    VerifyCheck = object({
      snapshotId: string2().nullable(),
      runId: string2().nullable(),
      check: string2(),
      ok: boolean2(),
      detail: string2()
    });
    VerifyReport = object({ ok: boolean2(), checks: array(VerifyCheck) });
  }
});

// types/report.ts
var ReportFormat, ReportSnapshot, RunReport;
var init_report = __esm({
  "types/report.ts"() {
    "use strict";
    init_zod();
    init_run();
    init_snapshot();
    init_verify2();
    ReportFormat = _enum(["html", "md", "json", "dotenv"]);
    ReportSnapshot = Snapshot.extend({
      task: string2().nullable(),
      gate: string2().nullable()
    });
    RunReport = object({
      kind: literal("agentgate-run-report"),
      version: literal(1),
      generatedAt: IsoDate,
      run: RunRecord,
      /** The run's first before SHA and its last after SHA (null before the first iteration). */
      beforeSha: Sha.nullable(),
      afterSha: Sha.nullable(),
      branch: string2().nullable(),
      totals: object({
        iterations: number2().int().nonnegative(),
        filesChanged: number2().int().nonnegative(),
        insertions: number2().int().nonnegative(),
        deletions: number2().int().nonnegative()
      }),
      snapshots: array(ReportSnapshot),
      verification: VerifyReport
    });
  }
});

// src/report/assets.ts
function loadAssets() {
  return Promise.resolve({ diff2htmlJs: `!function(e,t){"object"==typeof exports&&"object"==typeof module?module.exports=t():"function"==typeof define&&define.amd?define("Diff2Html",[],t):"object"==typeof exports?exports.Diff2Html=t():e.Diff2Html=t()}(this,(()=>{return e={25(e,t,n){"use strict";var r,i=this&&this.__extends||(r=function(e,t){return r=Object.setPrototypeOf||{__proto__:[]}instanceof Array&&function(e,t){e.__proto__=t}||function(e,t){for(var n in t)Object.prototype.hasOwnProperty.call(t,n)&&(e[n]=t[n])},r(e,t)},function(e,t){if("function"!=typeof t&&null!==t)throw new TypeError("Class extends value "+String(t)+" is not a constructor or null");function n(){this.constructor=e}r(e,t),e.prototype=null===t?Object.create(t):(n.prototype=t.prototype,new n)});Object.defineProperty(t,"__esModule",{value:!0}),t.wordsWithSpaceDiff=t.wordDiff=void 0,t.diffWords=function(e,n,r){return null==(null==r?void 0:r.ignoreWhitespace)||r.ignoreWhitespace?t.wordDiff.diff(e,n,r):d(e,n,r)},t.diffWordsWithSpace=d;var o=n(188),s=n(665),a="a-zA-Z0-9_\\\\u{AD}\\\\u{C0}-\\\\u{D6}\\\\u{D8}-\\\\u{F6}\\\\u{F8}-\\\\u{2C6}\\\\u{2C8}-\\\\u{2D7}\\\\u{2DE}-\\\\u{2FF}\\\\u{1E00}-\\\\u{1EFF}",l=new RegExp("[".concat(a,"]+|\\\\s+|[^").concat(a,"]"),"ug"),c=function(e){function t(){return null!==e&&e.apply(this,arguments)||this}return i(t,e),t.prototype.equals=function(e,t,n){return n.ignoreCase&&(e=e.toLowerCase(),t=t.toLowerCase()),e.trim()===t.trim()},t.prototype.tokenize=function(e,t){var n;if(void 0===t&&(t={}),t.intlSegmenter){var r=t.intlSegmenter;if("word"!=r.resolvedOptions().granularity)throw new Error('The segmenter passed must have a granularity of "word"');n=[];for(var i=0,o=Array.from(r.segment(e));i<o.length;i++){var s=o[i].segment;n.length&&/\\s/.test(n[n.length-1])&&/\\s/.test(s)?n[n.length-1]+=s:n.push(s)}}else n=e.match(l)||[];var a=[],c=null;return n.forEach((function(e){/\\s/.test(e)?null==c?a.push(e):a.push(a.pop()+e):null!=c&&/\\s/.test(c)?a[a.length-1]==c?a.push(a.pop()+e):a.push(c+e):a.push(e),c=e})),a},t.prototype.join=function(e){return e.map((function(e,t){return 0==t?e:e.replace(/^\\s+/,"")})).join("")},t.prototype.postProcess=function(e,t){if(!e||t.oneChangePerToken)return e;var n=null,r=null,i=null;return e.forEach((function(e){e.added?r=e:e.removed?i=e:((r||i)&&u(n,i,r,e),n=e,r=null,i=null)})),(r||i)&&u(n,i,r,null),e},t}(o.default);function u(e,t,n,r){if(t&&n){var i=(0,s.leadingWs)(t.value),o=(0,s.trailingWs)(t.value),a=(0,s.leadingWs)(n.value),l=(0,s.trailingWs)(n.value);if(e){var c=(0,s.longestCommonPrefix)(i,a);e.value=(0,s.replaceSuffix)(e.value,a,c),t.value=(0,s.removePrefix)(t.value,c),n.value=(0,s.removePrefix)(n.value,c)}if(r){var u=(0,s.longestCommonSuffix)(o,l);r.value=(0,s.replacePrefix)(r.value,l,u),t.value=(0,s.removeSuffix)(t.value,u),n.value=(0,s.removeSuffix)(n.value,u)}}else if(n){if(e){var f=(0,s.leadingWs)(n.value);n.value=n.value.substring(f.length)}r&&(f=(0,s.leadingWs)(r.value),r.value=r.value.substring(f.length))}else if(e&&r){var d=(0,s.leadingWs)(r.value),h=(0,s.leadingWs)(t.value),p=(0,s.trailingWs)(t.value),b=(0,s.longestCommonPrefix)(d,h);t.value=(0,s.removePrefix)(t.value,b);var g=(0,s.longestCommonSuffix)((0,s.removePrefix)(d,b),p);t.value=(0,s.removeSuffix)(t.value,g),r.value=(0,s.replacePrefix)(r.value,d,g),e.value=(0,s.replaceSuffix)(e.value,d,d.slice(0,d.length-g.length))}else if(r){var v=(0,s.leadingWs)(r.value),m=(0,s.trailingWs)(t.value),y=(0,s.maximumOverlap)(m,v);t.value=(0,s.removeSuffix)(t.value,y)}else if(e){var w=(0,s.trailingWs)(e.value),O=(0,s.leadingWs)(t.value);y=(0,s.maximumOverlap)(w,O),t.value=(0,s.removePrefix)(t.value,y)}}t.wordDiff=new c;var f=function(e){function t(){return null!==e&&e.apply(this,arguments)||this}return i(t,e),t.prototype.tokenize=function(e){var t=new RegExp("(\\\\r?\\\\n)|[".concat(a,"]+|[^\\\\S\\\\n\\\\r]+|[^").concat(a,"]"),"ug");return e.match(t)||[]},t}(o.default);function d(e,n,r){return t.wordsWithSpaceDiff.diff(e,n,r)}t.wordsWithSpaceDiff=new f},42(e,t,n){"use strict";var r,i=this&&this.__extends||(r=function(e,t){return r=Object.setPrototypeOf||{__proto__:[]}instanceof Array&&function(e,t){e.__proto__=t}||function(e,t){for(var n in t)Object.prototype.hasOwnProperty.call(t,n)&&(e[n]=t[n])},r(e,t)},function(e,t){if("function"!=typeof t&&null!==t)throw new TypeError("Class extends value "+String(t)+" is not a constructor or null");function n(){this.constructor=e}r(e,t),e.prototype=null===t?Object.create(t):(n.prototype=t.prototype,new n)});Object.defineProperty(t,"__esModule",{value:!0}),t.cssDiff=void 0,t.diffCss=function(e,n,r){return t.cssDiff.diff(e,n,r)};var o=function(e){function t(){return null!==e&&e.apply(this,arguments)||this}return i(t,e),t.prototype.tokenize=function(e){return e.split(/([{}:;,]|\\s+)/)},t}(n(188).default);t.cssDiff=new o},111(e,t,n){var r=n(453);r.Template=n(766).Template,r.template=r.Template,e.exports=r},151(e,t,n){"use strict";var r,i=this&&this.__createBinding||(Object.create?function(e,t,n,r){void 0===r&&(r=n);var i=Object.getOwnPropertyDescriptor(t,n);i&&!("get"in i?!t.__esModule:i.writable||i.configurable)||(i={enumerable:!0,get:function(){return t[n]}}),Object.defineProperty(e,r,i)}:function(e,t,n,r){void 0===r&&(r=n),e[r]=t[n]}),o=this&&this.__setModuleDefault||(Object.create?function(e,t){Object.defineProperty(e,"default",{enumerable:!0,value:t})}:function(e,t){e.default=t}),s=this&&this.__importStar||(r=function(e){return r=Object.getOwnPropertyNames||function(e){var t=[];for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[t.length]=n);return t},r(e)},function(e){if(e&&e.__esModule)return e;var t={};if(null!=e)for(var n=r(e),s=0;s<n.length;s++)"default"!==n[s]&&i(t,e,n[s]);return o(t,e),t});Object.defineProperty(t,"__esModule",{value:!0}),t.defaultSideBySideRendererConfig=void 0;const a=s(n(598)),l=s(n(302)),c=n(613),u=n(185);t.defaultSideBySideRendererConfig=Object.assign(Object.assign({},l.defaultRenderConfig),{renderNothingWhenEmpty:!1,matchingMaxComparisons:2500,maxLineSizeInBlockForComparison:200});const f="generic";t.default=class{constructor(e,n={}){this.hoganUtils=e,this.config=Object.assign(Object.assign({},t.defaultSideBySideRendererConfig),n)}render(e){const t=e.map((e=>{let t;return t=e.blocks.length?this.generateFileHtml(e):this.generateEmptyDiff(),this.makeFileDiffHtml(e,t)})).join("\\n");return this.hoganUtils.render(f,"wrapper",{colorScheme:l.colorSchemeToCss(this.config.colorScheme),content:t})}makeFileDiffHtml(e,t){if(this.config.renderNothingWhenEmpty&&Array.isArray(e.blocks)&&0===e.blocks.length)return"";const n=this.hoganUtils.template("side-by-side","file-diff"),r=this.hoganUtils.template(f,"file-path"),i=this.hoganUtils.template("icon","file"),o=this.hoganUtils.template("tag",l.getFileIcon(e));return n.render({file:e,fileHtmlId:l.getHtmlId(e),diffs:t,filePath:r.render({fileDiffName:l.filenameDiff(e)},{fileIcon:i,fileTag:o})})}generateEmptyDiff(){return{right:"",left:this.hoganUtils.render(f,"empty-diff",{contentClass:"d2h-code-side-line",CSSLineClass:l.CSSLineClass})}}generateFileHtml(e){const t=a.newMatcherFn(a.newDistanceFn((t=>l.deconstructLine(t.content,e.isCombined).content)));return e.blocks.map((n=>{const r={left:this.makeHeaderHtml(n.header,e),right:this.makeHeaderHtml("")};return this.applyLineGroupping(n).forEach((([n,i,o])=>{if(i.length&&o.length&&!n.length)this.applyRematchMatching(i,o,t).map((([t,n])=>{const{left:i,right:o}=this.processChangedLines(e.isCombined,t,n);r.left+=i,r.right+=o}));else if(n.length)n.forEach((t=>{const{prefix:n,content:i}=l.deconstructLine(t.content,e.isCombined),{left:o,right:s}=this.generateLineHtml({type:l.CSSLineClass.CONTEXT,prefix:n,content:i,number:t.oldNumber},{type:l.CSSLineClass.CONTEXT,prefix:n,content:i,number:t.newNumber});r.left+=o,r.right+=s}));else if(i.length||o.length){const{left:t,right:n}=this.processChangedLines(e.isCombined,i,o);r.left+=t,r.right+=n}else console.error("Unknown state reached while processing groups of lines",n,i,o)})),r})).reduce(((e,t)=>({left:e.left+t.left,right:e.right+t.right})),{left:"",right:""})}applyLineGroupping(e){const t=[];let n=[],r=[];for(let i=0;i<e.lines.length;i++){const o=e.lines[i];(o.type!==c.LineType.INSERT&&r.length||o.type===c.LineType.CONTEXT&&n.length>0)&&(t.push([[],n,r]),n=[],r=[]),o.type===c.LineType.CONTEXT?t.push([[o],[],[]]):o.type===c.LineType.INSERT&&0===n.length?t.push([[],[],[o]]):o.type===c.LineType.INSERT&&n.length>0?r.push(o):o.type===c.LineType.DELETE&&n.push(o)}return(n.length||r.length)&&(t.push([[],n,r]),n=[],r=[]),t}applyRematchMatching(e,t,n){const r=e.length*t.length,i=(0,u.max)(e.concat(t).map((e=>e.content.length)));return r<this.config.matchingMaxComparisons&&i<this.config.maxLineSizeInBlockForComparison&&("lines"===this.config.matching||"words"===this.config.matching)?n(e,t):[[e,t]]}makeHeaderHtml(e,t){return this.hoganUtils.render(f,"block-header",{CSSLineClass:l.CSSLineClass,blockHeader:(null==t?void 0:t.isTooBig)?e:l.escapeForHtml(e),lineClass:"d2h-code-side-linenumber",contentClass:"d2h-code-side-line"})}processChangedLines(e,t,n){const r={right:"",left:""},i=Math.max(t.length,n.length);for(let o=0;o<i;o++){const i=t[o],s=n[o],a=void 0!==i&&void 0!==s?l.diffHighlight(i.content,s.content,e,this.config):void 0,c=void 0!==i&&void 0!==i.oldNumber?Object.assign(Object.assign({},void 0!==a?{prefix:a.oldLine.prefix,content:a.oldLine.content,type:l.CSSLineClass.DELETE_CHANGES}:Object.assign(Object.assign({},l.deconstructLine(i.content,e)),{type:l.toCSSClass(i.type)})),{number:i.oldNumber}):void 0,u=void 0!==s&&void 0!==s.newNumber?Object.assign(Object.assign({},void 0!==a?{prefix:a.newLine.prefix,content:a.newLine.content,type:l.CSSLineClass.INSERT_CHANGES}:Object.assign(Object.assign({},l.deconstructLine(s.content,e)),{type:l.toCSSClass(s.type)})),{number:s.newNumber}):void 0,{left:f,right:d}=this.generateLineHtml(c,u);r.left+=f,r.right+=d}return r}generateLineHtml(e,t){return{left:this.generateSingleHtml(e),right:this.generateSingleHtml(t)}}generateSingleHtml(e){const t="d2h-code-side-linenumber",n="d2h-code-side-line";return this.hoganUtils.render(f,"line",{type:(null==e?void 0:e.type)||\`\${l.CSSLineClass.CONTEXT} d2h-emptyplaceholder\`,lineClass:void 0!==e?t:\`\${t} d2h-code-side-emptyplaceholder\`,contentClass:void 0!==e?n:\`\${n} d2h-code-side-emptyplaceholder\`,prefix:" "===(null==e?void 0:e.prefix)?"&nbsp;":null==e?void 0:e.prefix,content:null==e?void 0:e.content,lineNumber:null==e?void 0:e.number})}}},166(e,t,n){"use strict";var r,i=this&&this.__createBinding||(Object.create?function(e,t,n,r){void 0===r&&(r=n);var i=Object.getOwnPropertyDescriptor(t,n);i&&!("get"in i?!t.__esModule:i.writable||i.configurable)||(i={enumerable:!0,get:function(){return t[n]}}),Object.defineProperty(e,r,i)}:function(e,t,n,r){void 0===r&&(r=n),e[r]=t[n]}),o=this&&this.__setModuleDefault||(Object.create?function(e,t){Object.defineProperty(e,"default",{enumerable:!0,value:t})}:function(e,t){e.default=t}),s=this&&this.__importStar||(r=function(e){return r=Object.getOwnPropertyNames||function(e){var t=[];for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[t.length]=n);return t},r(e)},function(e){if(e&&e.__esModule)return e;var t={};if(null!=e)for(var n=r(e),s=0;s<n.length;s++)"default"!==n[s]&&i(t,e,n[s]);return o(t,e),t}),a=this&&this.__importDefault||function(e){return e&&e.__esModule?e:{default:e}};Object.defineProperty(t,"__esModule",{value:!0}),t.defaultDiff2HtmlConfig=void 0,t.parse=function(e,n={}){return l.parse(e,Object.assign(Object.assign({},t.defaultDiff2HtmlConfig),n))},t.html=function(e,n={}){const r=Object.assign(Object.assign({},t.defaultDiff2HtmlConfig),n),i="string"==typeof e?l.parse(e,r):e,o=new h.default(r),{colorScheme:s}=r,a={colorScheme:s};return(r.drawFileList?new c.FileListRenderer(o,a).render(i):"")+("side-by-side"===r.outputFormat?new f.default(o,r).render(i):new u.default(o,r).render(i))};const l=s(n(957)),c=n(501),u=s(n(895)),f=s(n(151)),d=n(613),h=a(n(178));t.defaultDiff2HtmlConfig=Object.assign(Object.assign(Object.assign({},u.defaultLineByLineRendererConfig),f.defaultSideBySideRendererConfig),{outputFormat:d.OutputFormatType.LINE_BY_LINE,drawFileList:!0})},178(e,t,n){"use strict";var r,i=this&&this.__createBinding||(Object.create?function(e,t,n,r){void 0===r&&(r=n);var i=Object.getOwnPropertyDescriptor(t,n);i&&!("get"in i?!t.__esModule:i.writable||i.configurable)||(i={enumerable:!0,get:function(){return t[n]}}),Object.defineProperty(e,r,i)}:function(e,t,n,r){void 0===r&&(r=n),e[r]=t[n]}),o=this&&this.__setModuleDefault||(Object.create?function(e,t){Object.defineProperty(e,"default",{enumerable:!0,value:t})}:function(e,t){e.default=t}),s=this&&this.__importStar||(r=function(e){return r=Object.getOwnPropertyNames||function(e){var t=[];for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[t.length]=n);return t},r(e)},function(e){if(e&&e.__esModule)return e;var t={};if(null!=e)for(var n=r(e),s=0;s<n.length;s++)"default"!==n[s]&&i(t,e,n[s]);return o(t,e),t});Object.defineProperty(t,"__esModule",{value:!0});const a=s(n(111)),l=n(488);t.default=class{constructor({compiledTemplates:e={},rawTemplates:t={}}){const n=Object.entries(t).reduce(((e,[t,n])=>{const r=a.compile(n,{asString:!1});return Object.assign(Object.assign({},e),{[t]:r})}),{});this.preCompiledTemplates=Object.assign(Object.assign(Object.assign({},l.defaultTemplates),e),n)}static compile(e){return a.compile(e,{asString:!1})}render(e,t,n,r,i){const o=this.templateKey(e,t);try{return this.preCompiledTemplates[o].render(n,r,i)}catch(e){throw new Error(\`Could not find template to render '\${o}'\`)}}template(e,t){return this.preCompiledTemplates[this.templateKey(e,t)]}templateKey(e,t){return\`\${e}-\${t}\`}}},185(e,t){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.escapeForRegExp=function(e){return e.replace(n,"\\\\$&")},t.unifyPath=function(e){return e?e.replace(/\\\\/g,"/"):e},t.hashCode=function(e){let t,n,r,i=0;for(t=0,r=e.length;t<r;t++)n=e.charCodeAt(t),i=(i<<5)-i+n,i|=0;return i},t.max=function(e){const t=e.length;let n=-1/0;for(let r=0;r<t;r++)n=Math.max(n,e[r]);return n};const n=RegExp("["+["-","[","]","/","{","}","(",")","*","+","?",".","\\\\","^","$","|"].join("\\\\")+"]","g")},188(e,t){"use strict";Object.defineProperty(t,"__esModule",{value:!0});var n=function(){function e(){}return e.prototype.diff=function(e,t,n){var r;void 0===n&&(n={}),"function"==typeof n?(r=n,n={}):"callback"in n&&(r=n.callback);var i=this.castInput(e,n),o=this.castInput(t,n),s=this.removeEmpty(this.tokenize(i,n)),a=this.removeEmpty(this.tokenize(o,n));return this.diffWithOptionsObj(s,a,n,r)},e.prototype.diffWithOptionsObj=function(e,t,n,r){var i,o=this,s=function(e){return e=o.postProcess(e,n),r?void setTimeout((function(){r(e)}),0):e},a=t.length,l=e.length,c=1,u=a+l;null!=n.maxEditLength&&(u=Math.min(u,n.maxEditLength));var f=null!==(i=n.timeout)&&void 0!==i?i:1/0,d=Date.now()+f,h=[{oldPos:-1,lastComponent:void 0}],p=this.extractCommon(h[0],t,e,0,n);if(h[0].oldPos+1>=l&&p+1>=a)return s(this.buildValues(h[0].lastComponent,t,e));var b=-1/0,g=1/0,v=function(){for(var r=Math.max(b,-c);r<=Math.min(g,c);r+=2){var i=void 0,u=h[r-1],f=h[r+1];u&&(h[r-1]=void 0);var d=!1;if(f){var v=f.oldPos-r;d=f&&0<=v&&v<a}var m=u&&u.oldPos+1<l;if(d||m){if(i=!m||d&&u.oldPos<f.oldPos?o.addToPath(f,!0,!1,0,n):o.addToPath(u,!1,!0,1,n),p=o.extractCommon(i,t,e,r,n),i.oldPos+1>=l&&p+1>=a)return s(o.buildValues(i.lastComponent,t,e))||!0;h[r]=i,i.oldPos+1>=l&&(g=Math.min(g,r-1)),p+1>=a&&(b=Math.max(b,r+1))}else h[r]=void 0}c++};if(r)!function e(){setTimeout((function(){if(c>u||Date.now()>d)return r(void 0);v()||e()}),0)}();else for(;c<=u&&Date.now()<=d;){var m=v();if(m)return m}},e.prototype.addToPath=function(e,t,n,r,i){var o=e.lastComponent;return o&&!i.oneChangePerToken&&o.added===t&&o.removed===n?{oldPos:e.oldPos+r,lastComponent:{count:o.count+1,added:t,removed:n,previousComponent:o.previousComponent}}:{oldPos:e.oldPos+r,lastComponent:{count:1,added:t,removed:n,previousComponent:o}}},e.prototype.extractCommon=function(e,t,n,r,i){for(var o=t.length,s=n.length,a=e.oldPos,l=a-r,c=0;l+1<o&&a+1<s&&this.equals(n[a+1],t[l+1],i);)l++,a++,c++,i.oneChangePerToken&&(e.lastComponent={count:1,previousComponent:e.lastComponent,added:!1,removed:!1});return c&&!i.oneChangePerToken&&(e.lastComponent={count:c,previousComponent:e.lastComponent,added:!1,removed:!1}),e.oldPos=a,l},e.prototype.equals=function(e,t,n){return n.comparator?n.comparator(e,t):e===t||!!n.ignoreCase&&e.toLowerCase()===t.toLowerCase()},e.prototype.removeEmpty=function(e){for(var t=[],n=0;n<e.length;n++)e[n]&&t.push(e[n]);return t},e.prototype.castInput=function(e,t){return e},e.prototype.tokenize=function(e,t){return Array.from(e)},e.prototype.join=function(e){return e.join("")},e.prototype.postProcess=function(e,t){return e},Object.defineProperty(e.prototype,"useLongestToken",{get:function(){return!1},enumerable:!1,configurable:!0}),e.prototype.buildValues=function(e,t,n){for(var r,i=[];e;)i.push(e),r=e.previousComponent,delete e.previousComponent,e=r;i.reverse();for(var o=i.length,s=0,a=0,l=0;s<o;s++){var c=i[s];if(c.removed)c.value=this.join(n.slice(l,l+c.count)),l+=c.count;else{if(!c.added&&this.useLongestToken){var u=t.slice(a,a+c.count);u=u.map((function(e,t){var r=n[l+t];return r.length>e.length?r:e})),c.value=this.join(u)}else c.value=this.join(t.slice(a,a+c.count));a+=c.count,c.added||(l+=c.count)}}return i},e}();t.default=n},302(e,t,n){"use strict";var r,i=this&&this.__createBinding||(Object.create?function(e,t,n,r){void 0===r&&(r=n);var i=Object.getOwnPropertyDescriptor(t,n);i&&!("get"in i?!t.__esModule:i.writable||i.configurable)||(i={enumerable:!0,get:function(){return t[n]}}),Object.defineProperty(e,r,i)}:function(e,t,n,r){void 0===r&&(r=n),e[r]=t[n]}),o=this&&this.__setModuleDefault||(Object.create?function(e,t){Object.defineProperty(e,"default",{enumerable:!0,value:t})}:function(e,t){e.default=t}),s=this&&this.__importStar||(r=function(e){return r=Object.getOwnPropertyNames||function(e){var t=[];for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[t.length]=n);return t},r(e)},function(e){if(e&&e.__esModule)return e;var t={};if(null!=e)for(var n=r(e),s=0;s<n.length;s++)"default"!==n[s]&&i(t,e,n[s]);return o(t,e),t});Object.defineProperty(t,"__esModule",{value:!0}),t.defaultRenderConfig=t.CSSLineClass=void 0,t.toCSSClass=function(e){switch(e){case u.LineType.CONTEXT:return t.CSSLineClass.CONTEXT;case u.LineType.INSERT:return t.CSSLineClass.INSERTS;case u.LineType.DELETE:return t.CSSLineClass.DELETES}},t.colorSchemeToCss=function(e){switch(e){case u.ColorSchemeType.DARK:return"d2h-dark-color-scheme";case u.ColorSchemeType.AUTO:return"d2h-auto-color-scheme";case u.ColorSchemeType.LIGHT:default:return"d2h-light-color-scheme"}},t.escapeForHtml=g,t.deconstructLine=v,t.filenameDiff=m,t.getHtmlId=function(e){return\`d2h-\${(0,l.hashCode)(m(e)).toString().slice(-6)}\`},t.getFileIcon=function(e){let t="file-changed";return e.isRename||e.isCopy?t="file-renamed":e.isNew?t="file-added":e.isDeleted?t="file-deleted":e.newName!==e.oldName&&(t="file-renamed"),t},t.diffHighlight=function(e,n,r,i={}){const{matching:o,maxLineLengthHighlight:s,matchWordsThreshold:l,diffStyle:c}=Object.assign(Object.assign({},t.defaultRenderConfig),i),u=v(e,r,!1),f=v(n,r,!1);if(u.content.length>s||f.content.length>s)return{oldLine:{prefix:u.prefix,content:g(u.content)},newLine:{prefix:f.prefix,content:g(f.content)}};const p="char"===c?a.diffChars(u.content,f.content):a.diffWordsWithSpace(u.content,f.content),m=[];if("word"===c&&"words"===o){const e=p.filter((e=>e.removed)),t=p.filter((e=>e.added));h(t,e).forEach((e=>{1===e[0].length&&1===e[1].length&&d(e[0][0],e[1][0])<l&&(m.push(e[0][0]),m.push(e[1][0]))}))}const y=p.reduce(((e,t)=>{const n=t.added?"ins":t.removed?"del":null,r=m.indexOf(t)>-1?' class="d2h-change"':"",i=g(t.value);return null!==n?\`\${e}<\${n}\${r}>\${i}</\${n}>\`:\`\${e}\${i}\`}),"");return{oldLine:{prefix:u.prefix,content:(w=y,w.replace(/(<ins[^>]*>((.|\\n)*?)<\\/ins>)/g,""))},newLine:{prefix:f.prefix,content:b(y)}};var w};const a=s(n(801)),l=n(185),c=s(n(598)),u=n(613);t.CSSLineClass={INSERTS:"d2h-ins",DELETES:"d2h-del",CONTEXT:"d2h-cntx",INFO:"d2h-info",INSERT_CHANGES:"d2h-ins d2h-change",DELETE_CHANGES:"d2h-del d2h-change"},t.defaultRenderConfig={matching:u.LineMatchingType.NONE,matchWordsThreshold:.25,maxLineLengthHighlight:1e4,diffStyle:u.DiffStyleType.WORD,colorScheme:u.ColorSchemeType.LIGHT};const f="/",d=c.newDistanceFn((e=>e.value)),h=c.newMatcherFn(d);function p(e){return-1!==e.indexOf("dev/null")}function b(e){return e.replace(/(<del[^>]*>((.|\\n)*?)<\\/del>)/g,"")}function g(e){return e.slice(0).replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/>/g,"&gt;").replace(/"/g,"&quot;").replace(/'/g,"&#x27;").replace(/\\//g,"&#x2F;")}function v(e,t,n=!0){const r=function(e){return e?2:1}(t);return{prefix:e.substring(0,r),content:n?g(e.substring(r)):e.substring(r)}}function m(e){const t=(0,l.unifyPath)(e.oldName),n=(0,l.unifyPath)(e.newName);if(t===n||p(t)||p(n))return p(n)?t:n;{const e=[],r=[],i=t.split(f),o=n.split(f);let s=0,a=i.length-1,l=o.length-1;for(;s<a&&s<l&&i[s]===o[s];)e.push(o[s]),s+=1;for(;a>s&&l>s&&i[a]===o[l];)r.unshift(o[l]),a-=1,l-=1;const c=e.join(f),u=r.join(f),d=i.slice(s,a+1).join(f),h=o.slice(s,l+1).join(f);return c.length&&u.length?c+f+"{"+d+" \u2192 "+h+"}"+f+u:c.length?c+f+"{"+d+" \u2192 "+h+"}":u.length?"{"+d+" \u2192 "+h+"}"+f+u:t+" \u2192 "+n}}},363(e,t){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.parsePatch=function(e){var t=e.split(/\\n/),n=[],r=0;function i(){var e={};for(n.push(e);r<t.length;){var i=t[r];if(/^(---|\\+\\+\\+|@@)\\s/.test(i))break;var a=/^(?:Index:|diff(?: -r \\w+)+)\\s+/.exec(i);a&&(e.index=i.substring(a[0].length).trim()),r++}for(o(e),o(e),e.hunks=[];r<t.length&&(i=t[r],!/^(Index:\\s|diff\\s|---\\s|\\+\\+\\+\\s|===================================================================)/.test(i));)if(/^@@/.test(i))e.hunks.push(s());else{if(i)throw new Error("Unknown line "+(r+1)+" "+JSON.stringify(i));r++}}function o(e){var n=/^(---|\\+\\+\\+)\\s+/.exec(t[r]);if(n){var i=n[1],o=t[r].substring(3).trim().split("\\t",2),s=(o[1]||"").trim(),a=o[0].replace(/\\\\\\\\/g,"\\\\");a.startsWith('"')&&a.endsWith('"')&&(a=a.substr(1,a.length-2)),"---"===i?(e.oldFileName=a,e.oldHeader=s):(e.newFileName=a,e.newHeader=s),r++}}function s(){var e,n=r,i=t[r++].split(/@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@/),o={oldStart:+i[1],oldLines:void 0===i[2]?1:+i[2],newStart:+i[3],newLines:void 0===i[4]?1:+i[4],lines:[]};0===o.oldLines&&(o.oldStart+=1),0===o.newLines&&(o.newStart+=1);for(var s=0,a=0;r<t.length&&(a<o.oldLines||s<o.newLines||(null===(e=t[r])||void 0===e?void 0:e.startsWith("\\\\")));r++){var l=0==t[r].length&&r!=t.length-1?" ":t[r][0];if("+"!==l&&"-"!==l&&" "!==l&&"\\\\"!==l)throw new Error("Hunk at line ".concat(n+1," contained invalid line ").concat(t[r]));o.lines.push(t[r]),"+"===l?s++:"-"===l?a++:" "===l&&(s++,a++)}if(s||1!==o.newLines||(o.newLines=0),a||1!==o.oldLines||(o.oldLines=0),s!==o.newLines)throw new Error("Added line count did not match for hunk at line "+(n+1));if(a!==o.oldLines)throw new Error("Removed line count did not match for hunk at line "+(n+1));return o}for(;r<t.length;)i();return n}},406(e,t){"use strict";var n=this&&this.__assign||function(){return n=Object.assign||function(e){for(var t,n=1,r=arguments.length;n<r;n++)for(var i in t=arguments[n])Object.prototype.hasOwnProperty.call(t,i)&&(e[i]=t[i]);return e},n.apply(this,arguments)};Object.defineProperty(t,"__esModule",{value:!0}),t.reversePatch=function e(t){return Array.isArray(t)?t.map((function(t){return e(t)})).reverse():n(n({},t),{oldFileName:t.newFileName,oldHeader:t.newHeader,newFileName:t.oldFileName,newHeader:t.oldHeader,hunks:t.hunks.map((function(e){return{oldLines:e.newLines,oldStart:e.newStart,newLines:e.oldLines,newStart:e.oldStart,lines:e.lines.map((function(e){return e.startsWith("-")?"+".concat(e.slice(1)):e.startsWith("+")?"-".concat(e.slice(1)):e}))}}))})}},453(e,t){!function(e){var t=/\\S/,n=/\\"/g,r=/\\n/g,i=/\\r/g,o=/\\\\/g,s=/\\u2028/,a=/\\u2029/;function l(e){return e.trim?e.trim():e.replace(/^\\s*|\\s*$/g,"")}function c(e,t,n){if(t.charAt(n)!=e.charAt(0))return!1;for(var r=1,i=e.length;r<i;r++)if(t.charAt(n+r)!=e.charAt(r))return!1;return!0}e.tags={"#":1,"^":2,"<":3,$:4,"/":5,"!":6,">":7,"=":8,_v:9,"{":10,"&":11,_t:12},e.scan=function(n,r){var i,o=n.length,s=0,a=null,u=null,f="",d=[],h=!1,p=0,b=0,g="{{",v="}}";function m(){f.length>0&&(d.push({tag:"_t",text:new String(f)}),f="")}function y(n,r){if(m(),n&&function(){for(var n=!0,r=b;r<d.length;r++)if(!(n=e.tags[d[r].tag]<e.tags._v||"_t"==d[r].tag&&null===d[r].text.match(t)))return!1;return n}())for(var i,o=b;o<d.length;o++)d[o].text&&((i=d[o+1])&&">"==i.tag&&(i.indent=d[o].text.toString()),d.splice(o,1));else r||d.push({tag:"\\n"});h=!1,b=d.length}function w(e,t){var n="="+v,r=e.indexOf(n,t),i=l(e.substring(e.indexOf("=",t)+1,r)).split(" ");return g=i[0],v=i[i.length-1],r+n.length-1}for(r&&(r=r.split(" "),g=r[0],v=r[1]),p=0;p<o;p++)0==s?c(g,n,p)?(--p,m(),s=1):"\\n"==n.charAt(p)?y(h):f+=n.charAt(p):1==s?(p+=g.length-1,"="==(a=(u=e.tags[n.charAt(p+1)])?n.charAt(p+1):"_v")?(p=w(n,p),s=0):(u&&p++,s=2),h=p):c(v,n,p)?(d.push({tag:a,n:l(f),otag:g,ctag:v,i:"/"==a?h-g.length:p+v.length}),f="",p+=v.length-1,s=0,"{"==a&&("}}"==v?p++:"}"===(i=d[d.length-1]).n.substr(i.n.length-1)&&(i.n=i.n.substring(0,i.n.length-1)))):f+=n.charAt(p);return y(h,!0),d};var u={_t:!0,"\\n":!0,$:!0,"/":!0};function f(t,n,r,i){var o,s=[],a=null,l=null;for(o=r[r.length-1];t.length>0;){if(l=t.shift(),o&&"<"==o.tag&&!(l.tag in u))throw new Error("Illegal content in < super tag.");if(e.tags[l.tag]<=e.tags.$||d(l,i))r.push(l),l.nodes=f(t,l.tag,r,i);else{if("/"==l.tag){if(0===r.length)throw new Error("Closing tag without opener: /"+l.n);if(a=r.pop(),l.n!=a.n&&!h(l.n,a.n,i))throw new Error("Nesting error: "+a.n+" vs. "+l.n);return a.end=l.i,s}"\\n"==l.tag&&(l.last=0==t.length||"\\n"==t[0].tag)}s.push(l)}if(r.length>0)throw new Error("missing closing tag: "+r.pop().n);return s}function d(e,t){for(var n=0,r=t.length;n<r;n++)if(t[n].o==e.n)return e.tag="#",!0}function h(e,t,n){for(var r=0,i=n.length;r<i;r++)if(n[r].c==e&&n[r].o==t)return!0}function p(e){var t=[];for(var n in e.partials)t.push('"'+g(n)+'":{name:"'+g(e.partials[n].name)+'", '+p(e.partials[n])+"}");return"partials: {"+t.join(",")+"}, subs: "+function(e){var t=[];for(var n in e)t.push('"'+g(n)+'": function(c,p,t,i) {'+e[n]+"}");return"{ "+t.join(",")+" }"}(e.subs)}e.stringify=function(t,n,r){return"{code: function (c,p,i) { "+e.wrapMain(t.code)+" },"+p(t)+"}"};var b=0;function g(e){return e.replace(o,"\\\\\\\\").replace(n,'\\\\"').replace(r,"\\\\n").replace(i,"\\\\r").replace(s,"\\\\u2028").replace(a,"\\\\u2029")}function v(e){return~e.indexOf(".")?"d":"f"}function m(e,t){var n="<"+(t.prefix||"")+e.n+b++;return t.partials[n]={name:e.n,partials:{}},t.code+='t.b(t.rp("'+g(n)+'",c,p,"'+(e.indent||"")+'"));',n}function y(e,t){t.code+="t.b(t.t(t."+v(e.n)+'("'+g(e.n)+'",c,p,0)));'}function w(e){return"t.b("+e+");"}e.generate=function(t,n,r){b=0;var i={code:"",subs:{},partials:{}};return e.walk(t,i),r.asString?this.stringify(i,n,r):this.makeTemplate(i,n,r)},e.wrapMain=function(e){return'var t=this;t.b(i=i||"");'+e+"return t.fl();"},e.template=e.Template,e.makeTemplate=function(e,t,n){var r=this.makePartials(e);return r.code=new Function("c","p","i",this.wrapMain(e.code)),new this.template(r,t,this,n)},e.makePartials=function(e){var t,n={subs:{},partials:e.partials,name:e.name};for(t in n.partials)n.partials[t]=this.makePartials(n.partials[t]);for(t in e.subs)n.subs[t]=new Function("c","p","t","i",e.subs[t]);return n},e.codegen={"#":function(t,n){n.code+="if(t.s(t."+v(t.n)+'("'+g(t.n)+'",c,p,1),c,p,0,'+t.i+","+t.end+',"'+t.otag+" "+t.ctag+'")){t.rs(c,p,function(c,p,t){',e.walk(t.nodes,n),n.code+="});c.pop();}"},"^":function(t,n){n.code+="if(!t.s(t."+v(t.n)+'("'+g(t.n)+'",c,p,1),c,p,1,0,0,"")){',e.walk(t.nodes,n),n.code+="};"},">":m,"<":function(t,n){var r={partials:{},code:"",subs:{},inPartial:!0};e.walk(t.nodes,r);var i=n.partials[m(t,n)];i.subs=r.subs,i.partials=r.partials},$:function(t,n){var r={subs:{},code:"",partials:n.partials,prefix:t.n};e.walk(t.nodes,r),n.subs[t.n]=r.code,n.inPartial||(n.code+='t.sub("'+g(t.n)+'",c,p,i);')},"\\n":function(e,t){t.code+=w('"\\\\n"'+(e.last?"":" + i"))},_v:function(e,t){t.code+="t.b(t.v(t."+v(e.n)+'("'+g(e.n)+'",c,p,0)));'},_t:function(e,t){t.code+=w('"'+g(e.text)+'"')},"{":y,"&":y},e.walk=function(t,n){for(var r,i=0,o=t.length;i<o;i++)(r=e.codegen[t[i].tag])&&r(t[i],n);return n},e.parse=function(e,t,n){return f(e,0,[],(n=n||{}).sectionTags||[])},e.cache={},e.cacheKey=function(e,t){return[e,!!t.asString,!!t.disableLambda,t.delimiters,!!t.modelGet].join("||")},e.compile=function(t,n){n=n||{};var r=e.cacheKey(t,n),i=this.cache[r];if(i){var o=i.partials;for(var s in o)delete o[s].instance;return i}return i=this.generate(this.parse(this.scan(t,n.delimiters),t,n),t,n),this.cache[r]=i}}(t)},484(e,t,n){"use strict";var r,i=this&&this.__extends||(r=function(e,t){return r=Object.setPrototypeOf||{__proto__:[]}instanceof Array&&function(e,t){e.__proto__=t}||function(e,t){for(var n in t)Object.prototype.hasOwnProperty.call(t,n)&&(e[n]=t[n])},r(e,t)},function(e,t){if("function"!=typeof t&&null!==t)throw new TypeError("Class extends value "+String(t)+" is not a constructor or null");function n(){this.constructor=e}r(e,t),e.prototype=null===t?Object.create(t):(n.prototype=t.prototype,new n)});Object.defineProperty(t,"__esModule",{value:!0}),t.sentenceDiff=void 0,t.diffSentences=function(e,n,r){return t.sentenceDiff.diff(e,n,r)};var o=function(e){function t(){return null!==e&&e.apply(this,arguments)||this}return i(t,e),t.prototype.tokenize=function(e){for(var t,n,r=[],i=0,o=0;o<e.length;o++){if(o==e.length-1){r.push(e.slice(i));break}if(("."==(n=e[o])||"!"==n||"?"==n)&&e[o+1].match(/\\s/)){for(r.push(e.slice(i,o+1)),o=i=o+1;null===(t=e[o+1])||void 0===t?void 0:t.match(/\\s/);)o++;r.push(e.slice(i,o+1)),i=o+1}}return r},t}(n(188).default);t.sentenceDiff=new o},488(e,t,n){"use strict";var r,i=this&&this.__createBinding||(Object.create?function(e,t,n,r){void 0===r&&(r=n);var i=Object.getOwnPropertyDescriptor(t,n);i&&!("get"in i?!t.__esModule:i.writable||i.configurable)||(i={enumerable:!0,get:function(){return t[n]}}),Object.defineProperty(e,r,i)}:function(e,t,n,r){void 0===r&&(r=n),e[r]=t[n]}),o=this&&this.__setModuleDefault||(Object.create?function(e,t){Object.defineProperty(e,"default",{enumerable:!0,value:t})}:function(e,t){e.default=t}),s=this&&this.__importStar||(r=function(e){return r=Object.getOwnPropertyNames||function(e){var t=[];for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[t.length]=n);return t},r(e)},function(e){if(e&&e.__esModule)return e;var t={};if(null!=e)for(var n=r(e),s=0;s<n.length;s++)"default"!==n[s]&&i(t,e,n[s]);return o(t,e),t});Object.defineProperty(t,"__esModule",{value:!0}),t.defaultTemplates=void 0;const a=s(n(111));t.defaultTemplates={},t.defaultTemplates["file-summary-line"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<li class="d2h-file-list-line">'),r.b("\\n"+n),r.b('    <span class="d2h-file-name-wrapper">'),r.b("\\n"+n),r.b(r.rp("<fileIcon0",e,t,"      ")),r.b('      <a href="#'),r.b(r.v(r.f("fileHtmlId",e,t,0))),r.b('" class="d2h-file-name">'),r.b(r.v(r.f("fileName",e,t,0))),r.b("</a>"),r.b("\\n"+n),r.b('      <span class="d2h-file-stats">'),r.b("\\n"+n),r.b('          <span class="d2h-lines-added">'),r.b(r.v(r.f("addedLines",e,t,0))),r.b("</span>"),r.b("\\n"+n),r.b('          <span class="d2h-lines-deleted">'),r.b(r.v(r.f("deletedLines",e,t,0))),r.b("</span>"),r.b("\\n"+n),r.b("      </span>"),r.b("\\n"+n),r.b("    </span>"),r.b("\\n"+n),r.b("</li>"),r.fl()},partials:{"<fileIcon0":{name:"fileIcon",partials:{},subs:{}}},subs:{}}),t.defaultTemplates["file-summary-wrapper"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<div class="d2h-file-list-wrapper '),r.b(r.v(r.f("colorScheme",e,t,0))),r.b('">'),r.b("\\n"+n),r.b('    <div class="d2h-file-list-header">'),r.b("\\n"+n),r.b('        <span class="d2h-file-list-title">Files changed ('),r.b(r.v(r.f("filesNumber",e,t,0))),r.b(")</span>"),r.b("\\n"+n),r.b('        <a class="d2h-file-switch d2h-hide">hide</a>'),r.b("\\n"+n),r.b('        <a class="d2h-file-switch d2h-show">show</a>'),r.b("\\n"+n),r.b("    </div>"),r.b("\\n"+n),r.b('    <ol class="d2h-file-list">'),r.b("\\n"+n),r.b("    "),r.b(r.t(r.f("files",e,t,0))),r.b("\\n"+n),r.b("    </ol>"),r.b("\\n"+n),r.b("</div>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["generic-block-header"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b("<tr>"),r.b("\\n"+n),r.b('    <td class="'),r.b(r.v(r.f("lineClass",e,t,0))),r.b(" "),r.b(r.v(r.d("CSSLineClass.INFO",e,t,0))),r.b('"></td>'),r.b("\\n"+n),r.b('    <td class="'),r.b(r.v(r.d("CSSLineClass.INFO",e,t,0))),r.b('">'),r.b("\\n"+n),r.b('        <div class="'),r.b(r.v(r.f("contentClass",e,t,0))),r.b('">'),r.s(r.f("blockHeader",e,t,1),e,t,0,156,173,"{{ }}")&&(r.rs(e,t,(function(e,t,n){n.b(n.t(n.f("blockHeader",e,t,0)))})),e.pop()),r.s(r.f("blockHeader",e,t,1),e,t,1,0,0,"")||r.b("&nbsp;"),r.b("</div>"),r.b("\\n"+n),r.b("    </td>"),r.b("\\n"+n),r.b("</tr>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["generic-empty-diff"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b("<tr>"),r.b("\\n"+n),r.b('    <td class="'),r.b(r.v(r.d("CSSLineClass.INFO",e,t,0))),r.b('">'),r.b("\\n"+n),r.b('        <div class="'),r.b(r.v(r.f("contentClass",e,t,0))),r.b('">'),r.b("\\n"+n),r.b("            File without changes"),r.b("\\n"+n),r.b("        </div>"),r.b("\\n"+n),r.b("    </td>"),r.b("\\n"+n),r.b("</tr>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["generic-file-path"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<span class="d2h-file-name-wrapper">'),r.b("\\n"+n),r.b(r.rp("<fileIcon0",e,t,"    ")),r.b('    <span class="d2h-file-name">'),r.b(r.v(r.f("fileDiffName",e,t,0))),r.b("</span>"),r.b("\\n"+n),r.b(r.rp("<fileTag1",e,t,"    ")),r.b("</span>"),r.b("\\n"+n),r.b('<label class="d2h-file-collapse">'),r.b("\\n"+n),r.b('    <input class="d2h-file-collapse-input" type="checkbox" name="viewed" value="viewed">'),r.b("\\n"+n),r.b("    Viewed"),r.b("\\n"+n),r.b("</label>"),r.fl()},partials:{"<fileIcon0":{name:"fileIcon",partials:{},subs:{}},"<fileTag1":{name:"fileTag",partials:{},subs:{}}},subs:{}}),t.defaultTemplates["generic-line"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b("<tr>"),r.b("\\n"+n),r.b('    <td class="'),r.b(r.v(r.f("lineClass",e,t,0))),r.b(" "),r.b(r.v(r.f("type",e,t,0))),r.b('">'),r.b("\\n"+n),r.b("      "),r.b(r.t(r.f("lineNumber",e,t,0))),r.b("\\n"+n),r.b("    </td>"),r.b("\\n"+n),r.b('    <td class="'),r.b(r.v(r.f("type",e,t,0))),r.b('">'),r.b("\\n"+n),r.b('        <div class="'),r.b(r.v(r.f("contentClass",e,t,0))),r.b('">'),r.b("\\n"+n),r.s(r.f("prefix",e,t,1),e,t,0,162,238,"{{ }}")&&(r.rs(e,t,(function(e,t,r){r.b('            <span class="d2h-code-line-prefix">'),r.b(r.t(r.f("prefix",e,t,0))),r.b("</span>"),r.b("\\n"+n)})),e.pop()),r.s(r.f("prefix",e,t,1),e,t,1,0,0,"")||(r.b('            <span class="d2h-code-line-prefix">&nbsp;</span>'),r.b("\\n"+n)),r.s(r.f("content",e,t,1),e,t,0,371,445,"{{ }}")&&(r.rs(e,t,(function(e,t,r){r.b('            <span class="d2h-code-line-ctn">'),r.b(r.t(r.f("content",e,t,0))),r.b("</span>"),r.b("\\n"+n)})),e.pop()),r.s(r.f("content",e,t,1),e,t,1,0,0,"")||(r.b('            <span class="d2h-code-line-ctn"><br></span>'),r.b("\\n"+n)),r.b("        </div>"),r.b("\\n"+n),r.b("    </td>"),r.b("\\n"+n),r.b("</tr>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["generic-wrapper"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<div class="d2h-wrapper '),r.b(r.v(r.f("colorScheme",e,t,0))),r.b('">'),r.b("\\n"+n),r.b("    "),r.b(r.t(r.f("content",e,t,0))),r.b("\\n"+n),r.b("</div>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["icon-file-added"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<svg aria-hidden="true" class="d2h-icon d2h-added" height="16" title="added" version="1.1" viewBox="0 0 14 16"'),r.b("\\n"+n),r.b('     width="14">'),r.b("\\n"+n),r.b('    <path d="M13 1H1C0.45 1 0 1.45 0 2v12c0 0.55 0.45 1 1 1h12c0.55 0 1-0.45 1-1V2c0-0.55-0.45-1-1-1z m0 13H1V2h12v12zM6 9H3V7h3V4h2v3h3v2H8v3H6V9z"></path>'),r.b("\\n"+n),r.b("</svg>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["icon-file-changed"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<svg aria-hidden="true" class="d2h-icon d2h-changed" height="16" title="modified" version="1.1"'),r.b("\\n"+n),r.b('     viewBox="0 0 14 16" width="14">'),r.b("\\n"+n),r.b('    <path d="M13 1H1C0.45 1 0 1.45 0 2v12c0 0.55 0.45 1 1 1h12c0.55 0 1-0.45 1-1V2c0-0.55-0.45-1-1-1z m0 13H1V2h12v12zM4 8c0-1.66 1.34-3 3-3s3 1.34 3 3-1.34 3-3 3-3-1.34-3-3z"></path>'),r.b("\\n"+n),r.b("</svg>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["icon-file-deleted"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<svg aria-hidden="true" class="d2h-icon d2h-deleted" height="16" title="removed" version="1.1"'),r.b("\\n"+n),r.b('     viewBox="0 0 14 16" width="14">'),r.b("\\n"+n),r.b('    <path d="M13 1H1C0.45 1 0 1.45 0 2v12c0 0.55 0.45 1 1 1h12c0.55 0 1-0.45 1-1V2c0-0.55-0.45-1-1-1z m0 13H1V2h12v12zM11 9H3V7h8v2z"></path>'),r.b("\\n"+n),r.b("</svg>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["icon-file-renamed"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<svg aria-hidden="true" class="d2h-icon d2h-moved" height="16" title="renamed" version="1.1"'),r.b("\\n"+n),r.b('     viewBox="0 0 14 16" width="14">'),r.b("\\n"+n),r.b('    <path d="M6 9H3V7h3V4l5 4-5 4V9z m8-7v12c0 0.55-0.45 1-1 1H1c-0.55 0-1-0.45-1-1V2c0-0.55 0.45-1 1-1h12c0.55 0 1 0.45 1 1z m-1 0H1v12h12V2z"></path>'),r.b("\\n"+n),r.b("</svg>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["icon-file"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<svg aria-hidden="true" class="d2h-icon" height="16" version="1.1" viewBox="0 0 12 16" width="12">'),r.b("\\n"+n),r.b('    <path d="M6 5H2v-1h4v1zM2 8h7v-1H2v1z m0 2h7v-1H2v1z m0 2h7v-1H2v1z m10-7.5v9.5c0 0.55-0.45 1-1 1H1c-0.55 0-1-0.45-1-1V2c0-0.55 0.45-1 1-1h7.5l3.5 3.5z m-1 0.5L8 2H1v12h10V5z"></path>'),r.b("\\n"+n),r.b("</svg>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["line-by-line-file-diff"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<div id="'),r.b(r.v(r.f("fileHtmlId",e,t,0))),r.b('" class="d2h-file-wrapper" data-lang="'),r.b(r.v(r.d("file.language",e,t,0))),r.b('">'),r.b("\\n"+n),r.b('    <div class="d2h-file-header">'),r.b("\\n"+n),r.b("    "),r.b(r.t(r.f("filePath",e,t,0))),r.b("\\n"+n),r.b("    </div>"),r.b("\\n"+n),r.b('    <div class="d2h-file-diff">'),r.b("\\n"+n),r.b('        <div class="d2h-code-wrapper">'),r.b("\\n"+n),r.b('            <table class="d2h-diff-table">'),r.b("\\n"+n),r.b('                <tbody class="d2h-diff-tbody">'),r.b("\\n"+n),r.b("                "),r.b(r.t(r.f("diffs",e,t,0))),r.b("\\n"+n),r.b("                </tbody>"),r.b("\\n"+n),r.b("            </table>"),r.b("\\n"+n),r.b("        </div>"),r.b("\\n"+n),r.b("    </div>"),r.b("\\n"+n),r.b("</div>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["line-by-line-numbers"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<div class="line-num1">'),r.b(r.v(r.f("oldNumber",e,t,0))),r.b("</div>"),r.b("\\n"+n),r.b('<div class="line-num2">'),r.b(r.v(r.f("newNumber",e,t,0))),r.b("</div>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["side-by-side-file-diff"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<div id="'),r.b(r.v(r.f("fileHtmlId",e,t,0))),r.b('" class="d2h-file-wrapper" data-lang="'),r.b(r.v(r.d("file.language",e,t,0))),r.b('">'),r.b("\\n"+n),r.b('    <div class="d2h-file-header">'),r.b("\\n"+n),r.b("      "),r.b(r.t(r.f("filePath",e,t,0))),r.b("\\n"+n),r.b("    </div>"),r.b("\\n"+n),r.b('    <div class="d2h-files-diff">'),r.b("\\n"+n),r.b('        <div class="d2h-file-side-diff">'),r.b("\\n"+n),r.b('            <div class="d2h-code-wrapper">'),r.b("\\n"+n),r.b('                <table class="d2h-diff-table">'),r.b("\\n"+n),r.b('                    <tbody class="d2h-diff-tbody">'),r.b("\\n"+n),r.b("                    "),r.b(r.t(r.d("diffs.left",e,t,0))),r.b("\\n"+n),r.b("                    </tbody>"),r.b("\\n"+n),r.b("                </table>"),r.b("\\n"+n),r.b("            </div>"),r.b("\\n"+n),r.b("        </div>"),r.b("\\n"+n),r.b('        <div class="d2h-file-side-diff">'),r.b("\\n"+n),r.b('            <div class="d2h-code-wrapper">'),r.b("\\n"+n),r.b('                <table class="d2h-diff-table">'),r.b("\\n"+n),r.b('                    <tbody class="d2h-diff-tbody">'),r.b("\\n"+n),r.b("                    "),r.b(r.t(r.d("diffs.right",e,t,0))),r.b("\\n"+n),r.b("                    </tbody>"),r.b("\\n"+n),r.b("                </table>"),r.b("\\n"+n),r.b("            </div>"),r.b("\\n"+n),r.b("        </div>"),r.b("\\n"+n),r.b("    </div>"),r.b("\\n"+n),r.b("</div>"),r.fl()},partials:{},subs:{}}),t.defaultTemplates["tag-file-added"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<span class="d2h-tag d2h-added d2h-added-tag">ADDED</span>'),r.fl()},partials:{},subs:{}}),t.defaultTemplates["tag-file-changed"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<span class="d2h-tag d2h-changed d2h-changed-tag">CHANGED</span>'),r.fl()},partials:{},subs:{}}),t.defaultTemplates["tag-file-deleted"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<span class="d2h-tag d2h-deleted d2h-deleted-tag">DELETED</span>'),r.fl()},partials:{},subs:{}}),t.defaultTemplates["tag-file-renamed"]=new a.Template({code:function(e,t,n){var r=this;return r.b(n=n||""),r.b('<span class="d2h-tag d2h-moved d2h-moved-tag">RENAMED</span>'),r.fl()},partials:{},subs:{}})},501(e,t,n){"use strict";var r,i=this&&this.__createBinding||(Object.create?function(e,t,n,r){void 0===r&&(r=n);var i=Object.getOwnPropertyDescriptor(t,n);i&&!("get"in i?!t.__esModule:i.writable||i.configurable)||(i={enumerable:!0,get:function(){return t[n]}}),Object.defineProperty(e,r,i)}:function(e,t,n,r){void 0===r&&(r=n),e[r]=t[n]}),o=this&&this.__setModuleDefault||(Object.create?function(e,t){Object.defineProperty(e,"default",{enumerable:!0,value:t})}:function(e,t){e.default=t}),s=this&&this.__importStar||(r=function(e){return r=Object.getOwnPropertyNames||function(e){var t=[];for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[t.length]=n);return t},r(e)},function(e){if(e&&e.__esModule)return e;var t={};if(null!=e)for(var n=r(e),s=0;s<n.length;s++)"default"!==n[s]&&i(t,e,n[s]);return o(t,e),t});Object.defineProperty(t,"__esModule",{value:!0}),t.FileListRenderer=t.defaultFileListRendererConfig=void 0;const a=s(n(302)),l="file-summary";t.defaultFileListRendererConfig={colorScheme:a.defaultRenderConfig.colorScheme},t.FileListRenderer=class{constructor(e,n={}){this.hoganUtils=e,this.config=Object.assign(Object.assign({},t.defaultFileListRendererConfig),n)}render(e){const t=e.map((e=>this.hoganUtils.render(l,"line",{fileHtmlId:a.getHtmlId(e),oldName:e.oldName,newName:e.newName,fileName:a.filenameDiff(e),deletedLines:"-"+e.deletedLines,addedLines:"+"+e.addedLines},{fileIcon:this.hoganUtils.template("icon",a.getFileIcon(e))}))).join("\\n");return this.hoganUtils.render(l,"wrapper",{colorScheme:a.colorSchemeToCss(this.config.colorScheme),filesNumber:e.length,files:t})}}},598(e,t){"use strict";function n(e,t){if(0===e.length)return t.length;if(0===t.length)return e.length;const n=[];let r,i;for(r=0;r<=t.length;r++)n[r]=[r];for(i=0;i<=e.length;i++)n[0][i]=i;for(r=1;r<=t.length;r++)for(i=1;i<=e.length;i++)t.charAt(r-1)===e.charAt(i-1)?n[r][i]=n[r-1][i-1]:n[r][i]=Math.min(n[r-1][i-1]+1,Math.min(n[r][i-1]+1,n[r-1][i]+1));return n[t.length][e.length]}Object.defineProperty(t,"__esModule",{value:!0}),t.levenshtein=n,t.newDistanceFn=function(e){return(t,r)=>{const i=e(t).trim(),o=e(r).trim();return n(i,o)/(i.length+o.length)}},t.newMatcherFn=function(e){return function t(n,r,i=0,o=new Map){const s=function(t,n,r=new Map){let i,o=1/0;for(let s=0;s<t.length;++s)for(let a=0;a<n.length;++a){const l=JSON.stringify([t[s],n[a]]);let c;r.has(l)&&(c=r.get(l))||(c=e(t[s],n[a]),r.set(l,c)),c<o&&(o=c,i={indexA:s,indexB:a,score:o})}return i}(n,r,o);if(!s||n.length+r.length<3)return[[n,r]];const a=n.slice(0,s.indexA),l=r.slice(0,s.indexB),c=[n[s.indexA]],u=[r[s.indexB]],f=s.indexA+1,d=s.indexB+1,h=n.slice(f),p=r.slice(d),b=t(a,l,i+1,o),g=t(c,u,i+1,o),v=t(h,p,i+1,o);let m=g;return(s.indexA>0||s.indexB>0)&&(m=b.concat(m)),(n.length>f||r.length>d)&&(m=m.concat(v)),m}}},613(e,t){"use strict";var n,r;Object.defineProperty(t,"__esModule",{value:!0}),t.ColorSchemeType=t.DiffStyleType=t.LineMatchingType=t.OutputFormatType=t.LineType=void 0,function(e){e.INSERT="insert",e.DELETE="delete",e.CONTEXT="context"}(n||(t.LineType=n={})),t.OutputFormatType={LINE_BY_LINE:"line-by-line",SIDE_BY_SIDE:"side-by-side"},t.LineMatchingType={LINES:"lines",WORDS:"words",NONE:"none"},t.DiffStyleType={WORD:"word",CHAR:"char"},function(e){e.AUTO="auto",e.DARK="dark",e.LIGHT="light"}(r||(t.ColorSchemeType=r={}))},622(e,t,n){"use strict";var r,i=this&&this.__extends||(r=function(e,t){return r=Object.setPrototypeOf||{__proto__:[]}instanceof Array&&function(e,t){e.__proto__=t}||function(e,t){for(var n in t)Object.prototype.hasOwnProperty.call(t,n)&&(e[n]=t[n])},r(e,t)},function(e,t){if("function"!=typeof t&&null!==t)throw new TypeError("Class extends value "+String(t)+" is not a constructor or null");function n(){this.constructor=e}r(e,t),e.prototype=null===t?Object.create(t):(n.prototype=t.prototype,new n)});Object.defineProperty(t,"__esModule",{value:!0}),t.characterDiff=void 0,t.diffChars=function(e,n,r){return t.characterDiff.diff(e,n,r)};var o=function(e){function t(){return null!==e&&e.apply(this,arguments)||this}return i(t,e),t}(n(188).default);t.characterDiff=new o},660(e,t){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.convertChangesToXML=function(e){for(var t=[],n=0;n<e.length;n++){var r=e[n];r.added?t.push("<ins>"):r.removed&&t.push("<del>"),t.push(r.value.replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/>/g,"&gt;").replace(/"/g,"&quot;")),r.added?t.push("</ins>"):r.removed&&t.push("</del>")}return t.join("")}},665(e,t){"use strict";function n(e,t,n){if(e.slice(0,t.length)!=t)throw Error("string ".concat(JSON.stringify(e)," doesn't start with prefix ").concat(JSON.stringify(t),"; this is a bug"));return n+e.slice(t.length)}function r(e,t,n){if(!t)return e+n;if(e.slice(-t.length)!=t)throw Error("string ".concat(JSON.stringify(e)," doesn't end with suffix ").concat(JSON.stringify(t),"; this is a bug"));return e.slice(0,-t.length)+n}Object.defineProperty(t,"__esModule",{value:!0}),t.longestCommonPrefix=function(e,t){var n;for(n=0;n<e.length&&n<t.length;n++)if(e[n]!=t[n])return e.slice(0,n);return e.slice(0,n)},t.longestCommonSuffix=function(e,t){var n;if(!e||!t||e[e.length-1]!=t[t.length-1])return"";for(n=0;n<e.length&&n<t.length;n++)if(e[e.length-(n+1)]!=t[t.length-(n+1)])return e.slice(-n);return e.slice(-n)},t.replacePrefix=n,t.replaceSuffix=r,t.removePrefix=function(e,t){return n(e,t,"")},t.removeSuffix=function(e,t){return r(e,t,"")},t.maximumOverlap=function(e,t){return t.slice(0,function(e,t){var n=0;e.length>t.length&&(n=e.length-t.length);var r=t.length;e.length<t.length&&(r=e.length);var i=Array(r),o=0;i[0]=0;for(var s=1;s<r;s++){for(t[s]==t[o]?i[s]=i[o]:i[s]=o;o>0&&t[s]!=t[o];)o=i[o];t[s]==t[o]&&o++}o=0;for(var a=n;a<e.length;a++){for(;o>0&&e[a]!=t[o];)o=i[o];e[a]==t[o]&&o++}return o}(e,t))},t.hasOnlyWinLineEndings=function(e){return e.includes("\\r\\n")&&!e.startsWith("\\n")&&!e.match(/[^\\r]\\n/)},t.hasOnlyUnixLineEndings=function(e){return!e.includes("\\r\\n")&&e.includes("\\n")},t.trailingWs=function(e){var t;for(t=e.length-1;t>=0&&e[t].match(/\\s/);t--);return e.substring(t+1)},t.leadingWs=function(e){var t=e.match(/^\\s*/);return t?t[0]:""}},725(e,t){"use strict";var n=this&&this.__assign||function(){return n=Object.assign||function(e){for(var t,n=1,r=arguments.length;n<r;n++)for(var i in t=arguments[n])Object.prototype.hasOwnProperty.call(t,i)&&(e[i]=t[i]);return e},n.apply(this,arguments)};Object.defineProperty(t,"__esModule",{value:!0}),t.unixToWin=function e(t){return Array.isArray(t)?t.map((function(t){return e(t)})):n(n({},t),{hunks:t.hunks.map((function(e){return n(n({},e),{lines:e.lines.map((function(t,n){var r;return t.startsWith("\\\\")||t.endsWith("\\r")||(null===(r=e.lines[n+1])||void 0===r?void 0:r.startsWith("\\\\"))?t:t+"\\r"}))})}))})},t.winToUnix=function e(t){return Array.isArray(t)?t.map((function(t){return e(t)})):n(n({},t),{hunks:t.hunks.map((function(e){return n(n({},e),{lines:e.lines.map((function(e){return e.endsWith("\\r")?e.substring(0,e.length-1):e}))})}))})},t.isUnix=function(e){return Array.isArray(e)||(e=[e]),!e.some((function(e){return e.hunks.some((function(e){return e.lines.some((function(e){return!e.startsWith("\\\\")&&e.endsWith("\\r")}))}))}))},t.isWin=function(e){return Array.isArray(e)||(e=[e]),e.some((function(e){return e.hunks.some((function(e){return e.lines.some((function(e){return e.endsWith("\\r")}))}))}))&&e.every((function(e){return e.hunks.every((function(e){return e.lines.every((function(t,n){var r;return t.startsWith("\\\\")||t.endsWith("\\r")||(null===(r=e.lines[n+1])||void 0===r?void 0:r.startsWith("\\\\"))}))}))}))}},738(e,t){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.default=function(e,t,n){var r=!0,i=!1,o=!1,s=1;return function a(){if(r&&!o){if(i?s++:r=!1,e+s<=n)return e+s;o=!0}if(!i)return o||(r=!0),t<=e-s?e-s++:(i=!0,a())}}},766(e,t){!function(e){function t(e,t,n){var r;return t&&"object"==typeof t&&(void 0!==t[e]?r=t[e]:n&&t.get&&"function"==typeof t.get&&(r=t.get(e))),r}e.Template=function(e,t,n,r){e=e||{},this.r=e.code||this.r,this.c=n,this.options=r||{},this.text=t||"",this.partials=e.partials||{},this.subs=e.subs||{},this.buf=""},e.Template.prototype={r:function(e,t,n){return""},v:function(e){return e=l(e),a.test(e)?e.replace(n,"&amp;").replace(r,"&lt;").replace(i,"&gt;").replace(o,"&#39;").replace(s,"&quot;"):e},t:l,render:function(e,t,n){return this.ri([e],t||{},n)},ri:function(e,t,n){return this.r(e,t,n)},ep:function(e,t){var n=this.partials[e],r=t[n.name];if(n.instance&&n.base==r)return n.instance;if("string"==typeof r){if(!this.c)throw new Error("No compiler available.");r=this.c.compile(r,this.options)}if(!r)return null;if(this.partials[e].base=r,n.subs){for(key in t.stackText||(t.stackText={}),n.subs)t.stackText[key]||(t.stackText[key]=void 0!==this.activeSub&&t.stackText[this.activeSub]?t.stackText[this.activeSub]:this.text);r=function(e,t,n,r,i,o){function s(){}function a(){}var l;s.prototype=e,a.prototype=e.subs;var c=new s;for(l in c.subs=new a,c.subsText={},c.buf="",r=r||{},c.stackSubs=r,c.subsText=o,t)r[l]||(r[l]=t[l]);for(l in r)c.subs[l]=r[l];for(l in i=i||{},c.stackPartials=i,n)i[l]||(i[l]=n[l]);for(l in i)c.partials[l]=i[l];return c}(r,n.subs,n.partials,this.stackSubs,this.stackPartials,t.stackText)}return this.partials[e].instance=r,r},rp:function(e,t,n,r){var i=this.ep(e,n);return i?i.ri(t,n,r):""},rs:function(e,t,n){var r=e[e.length-1];if(c(r))for(var i=0;i<r.length;i++)e.push(r[i]),n(e,t,this),e.pop();else n(e,t,this)},s:function(e,t,n,r,i,o,s){var a;return(!c(e)||0!==e.length)&&("function"==typeof e&&(e=this.ms(e,t,n,r,i,o,s)),a=!!e,!r&&a&&t&&t.push("object"==typeof e?e:t[t.length-1]),a)},d:function(e,n,r,i){var o,s=e.split("."),a=this.f(s[0],n,r,i),l=this.options.modelGet,u=null;if("."===e&&c(n[n.length-2]))a=n[n.length-1];else for(var f=1;f<s.length;f++)void 0!==(o=t(s[f],a,l))?(u=a,a=o):a="";return!(i&&!a)&&(i||"function"!=typeof a||(n.push(u),a=this.mv(a,n,r),n.pop()),a)},f:function(e,n,r,i){for(var o=!1,s=!1,a=this.options.modelGet,l=n.length-1;l>=0;l--)if(void 0!==(o=t(e,n[l],a))){s=!0;break}return s?(i||"function"!=typeof o||(o=this.mv(o,n,r)),o):!i&&""},ls:function(e,t,n,r,i,o){var s=this.options.delimiters;return this.options.delimiters=o,this.b(this.ct(l(e.call(t,i,n)),t,r)),this.options.delimiters=s,!1},ct:function(e,t,n){if(this.options.disableLambda)throw new Error("Lambda features disabled.");return this.c.compile(e,this.options).render(t,n)},b:function(e){this.buf+=e},fl:function(){var e=this.buf;return this.buf="",e},ms:function(e,t,n,r,i,o,s){var a,l=t[t.length-1],c=e.call(l);return"function"==typeof c?!!r||(a=this.activeSub&&this.subsText&&this.subsText[this.activeSub]?this.subsText[this.activeSub]:this.text,this.ls(c,l,t,n,a.substring(i,o),s)):c},mv:function(e,t,n){var r=t[t.length-1],i=e.call(r);return"function"==typeof i?this.ct(l(i.call(r)),r,n):i},sub:function(e,t,n,r){var i=this.subs[e];i&&(this.activeSub=e,i(t,n,this,r),this.activeSub=!1)}};var n=/&/g,r=/</g,i=/>/g,o=/\\'/g,s=/\\"/g,a=/[&<>\\"\\']/;function l(e){return String(null==e?"":e)}var c=Array.isArray||function(e){return"[object Array]"===Object.prototype.toString.call(e)}}(t)},801(e,t,n){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.canonicalize=t.convertChangesToXML=t.convertChangesToDMP=t.reversePatch=t.parsePatch=t.applyPatches=t.applyPatch=t.OMIT_HEADERS=t.FILE_HEADERS_ONLY=t.INCLUDE_HEADERS=t.formatPatch=t.createPatch=t.createTwoFilesPatch=t.structuredPatch=t.arrayDiff=t.diffArrays=t.jsonDiff=t.diffJson=t.cssDiff=t.diffCss=t.sentenceDiff=t.diffSentences=t.diffTrimmedLines=t.lineDiff=t.diffLines=t.wordsWithSpaceDiff=t.diffWordsWithSpace=t.wordDiff=t.diffWords=t.characterDiff=t.diffChars=t.Diff=void 0;var r=n(188);t.Diff=r.default;var i=n(622);Object.defineProperty(t,"diffChars",{enumerable:!0,get:function(){return i.diffChars}}),Object.defineProperty(t,"characterDiff",{enumerable:!0,get:function(){return i.characterDiff}});var o=n(25);Object.defineProperty(t,"diffWords",{enumerable:!0,get:function(){return o.diffWords}}),Object.defineProperty(t,"diffWordsWithSpace",{enumerable:!0,get:function(){return o.diffWordsWithSpace}}),Object.defineProperty(t,"wordDiff",{enumerable:!0,get:function(){return o.wordDiff}}),Object.defineProperty(t,"wordsWithSpaceDiff",{enumerable:!0,get:function(){return o.wordsWithSpaceDiff}});var s=n(839);Object.defineProperty(t,"diffLines",{enumerable:!0,get:function(){return s.diffLines}}),Object.defineProperty(t,"diffTrimmedLines",{enumerable:!0,get:function(){return s.diffTrimmedLines}}),Object.defineProperty(t,"lineDiff",{enumerable:!0,get:function(){return s.lineDiff}});var a=n(484);Object.defineProperty(t,"diffSentences",{enumerable:!0,get:function(){return a.diffSentences}}),Object.defineProperty(t,"sentenceDiff",{enumerable:!0,get:function(){return a.sentenceDiff}});var l=n(42);Object.defineProperty(t,"diffCss",{enumerable:!0,get:function(){return l.diffCss}}),Object.defineProperty(t,"cssDiff",{enumerable:!0,get:function(){return l.cssDiff}});var c=n(843);Object.defineProperty(t,"diffJson",{enumerable:!0,get:function(){return c.diffJson}}),Object.defineProperty(t,"canonicalize",{enumerable:!0,get:function(){return c.canonicalize}}),Object.defineProperty(t,"jsonDiff",{enumerable:!0,get:function(){return c.jsonDiff}});var u=n(968);Object.defineProperty(t,"diffArrays",{enumerable:!0,get:function(){return u.diffArrays}}),Object.defineProperty(t,"arrayDiff",{enumerable:!0,get:function(){return u.arrayDiff}});var f=n(904);Object.defineProperty(t,"applyPatch",{enumerable:!0,get:function(){return f.applyPatch}}),Object.defineProperty(t,"applyPatches",{enumerable:!0,get:function(){return f.applyPatches}});var d=n(363);Object.defineProperty(t,"parsePatch",{enumerable:!0,get:function(){return d.parsePatch}});var h=n(406);Object.defineProperty(t,"reversePatch",{enumerable:!0,get:function(){return h.reversePatch}});var p=n(822);Object.defineProperty(t,"structuredPatch",{enumerable:!0,get:function(){return p.structuredPatch}}),Object.defineProperty(t,"createTwoFilesPatch",{enumerable:!0,get:function(){return p.createTwoFilesPatch}}),Object.defineProperty(t,"createPatch",{enumerable:!0,get:function(){return p.createPatch}}),Object.defineProperty(t,"formatPatch",{enumerable:!0,get:function(){return p.formatPatch}}),Object.defineProperty(t,"INCLUDE_HEADERS",{enumerable:!0,get:function(){return p.INCLUDE_HEADERS}}),Object.defineProperty(t,"FILE_HEADERS_ONLY",{enumerable:!0,get:function(){return p.FILE_HEADERS_ONLY}}),Object.defineProperty(t,"OMIT_HEADERS",{enumerable:!0,get:function(){return p.OMIT_HEADERS}});var b=n(868);Object.defineProperty(t,"convertChangesToDMP",{enumerable:!0,get:function(){return b.convertChangesToDMP}});var g=n(660);Object.defineProperty(t,"convertChangesToXML",{enumerable:!0,get:function(){return g.convertChangesToXML}})},822(e,t,n){"use strict";var r=this&&this.__assign||function(){return r=Object.assign||function(e){for(var t,n=1,r=arguments.length;n<r;n++)for(var i in t=arguments[n])Object.prototype.hasOwnProperty.call(t,i)&&(e[i]=t[i]);return e},r.apply(this,arguments)};Object.defineProperty(t,"__esModule",{value:!0}),t.OMIT_HEADERS=t.FILE_HEADERS_ONLY=t.INCLUDE_HEADERS=void 0,t.structuredPatch=o,t.formatPatch=s,t.createTwoFilesPatch=a,t.createPatch=function(e,t,n,r,i,o){return a(e,e,t,n,r,i,o)};var i=n(839);function o(e,t,n,o,s,a,l){var c;void 0===(c=l?"function"==typeof l?{callback:l}:l:{}).context&&(c.context=4);var u=c.context;if(c.newlineIsToken)throw new Error("newlineIsToken may not be used with patch-generation functions, only with diffing functions");if(!c.callback)return d((0,i.diffLines)(n,o,c));var f=c.callback;function d(n){if(n){n.push({value:"",lines:[]});for(var r=[],i=0,o=0,l=[],c=1,f=1,d=0;d<n.length;d++){var h=n[d],p=h.lines||(void 0,P=void 0,x=(j=h.value).endsWith("\\n"),P=j.split("\\n").map((function(e){return e+"\\n"})),x?P.pop():P.push(P.pop().slice(0,-1)),P);if(h.lines=p,h.added||h.removed){if(!i){var b=n[d-1];i=c,o=f,b&&(i-=(l=u>0?E(b.lines.slice(-u)):[]).length,o-=l.length)}for(var g=0,v=p;g<v.length;g++){var m=v[g];l.push((h.added?"+":"-")+m)}h.added?f+=p.length:c+=p.length}else{if(i)if(p.length<=2*u&&d<n.length-2)for(var y=0,w=E(p);y<w.length;y++)m=w[y],l.push(m);else{for(var O=Math.min(p.length,u),_=0,S=E(p.slice(0,O));_<S.length;_++)m=S[_],l.push(m);var C={oldStart:i,oldLines:c-i+O,newStart:o,newLines:f-o+O,lines:l};r.push(C),i=0,o=0,l=[]}c+=p.length,f+=p.length}}for(var L=0,T=r;L<T.length;L++)for(C=T[L],d=0;d<C.lines.length;d++)C.lines[d].endsWith("\\n")?C.lines[d]=C.lines[d].slice(0,-1):(C.lines.splice(d+1,0,"\\\\ No newline at end of file"),d++);return{oldFileName:e,newFileName:t,oldHeader:s,newHeader:a,hunks:r}}var j,x,P;function E(e){return e.map((function(e){return" "+e}))}}(0,i.diffLines)(n,o,r(r({},c),{callback:function(e){var t=d(e);f(t)}}))}function s(e,n){if(n||(n=t.INCLUDE_HEADERS),Array.isArray(e)){if(e.length>1&&!n.includeFileHeaders)throw new Error("Cannot omit file headers on a multi-file patch. (The result would be unparseable; how would a tool trying to apply the patch know which changes are to which file?)");return e.map((function(e){return s(e,n)})).join("\\n")}var r=[];n.includeIndex&&e.oldFileName==e.newFileName&&r.push("Index: "+e.oldFileName),n.includeUnderline&&r.push("==================================================================="),n.includeFileHeaders&&(r.push("--- "+e.oldFileName+(void 0===e.oldHeader?"":"\\t"+e.oldHeader)),r.push("+++ "+e.newFileName+(void 0===e.newHeader?"":"\\t"+e.newHeader)));for(var i=0;i<e.hunks.length;i++){var o=e.hunks[i];0===o.oldLines&&(o.oldStart-=1),0===o.newLines&&(o.newStart-=1),r.push("@@ -"+o.oldStart+","+o.oldLines+" +"+o.newStart+","+o.newLines+" @@");for(var a=0,l=o.lines;a<l.length;a++){var c=l[a];r.push(c)}}return r.join("\\n")+"\\n"}function a(e,t,n,i,a,l,c){if("function"==typeof c&&(c={callback:c}),!(null==c?void 0:c.callback)){var u=o(e,t,n,i,a,l,c);if(!u)return;return s(u,null==c?void 0:c.headerOptions)}var f=c.callback;o(e,t,n,i,a,l,r(r({},c),{callback:function(e){f(e?s(e,c.headerOptions):void 0)}}))}t.INCLUDE_HEADERS={includeIndex:!0,includeUnderline:!0,includeFileHeaders:!0},t.FILE_HEADERS_ONLY={includeIndex:!1,includeUnderline:!1,includeFileHeaders:!0},t.OMIT_HEADERS={includeIndex:!1,includeUnderline:!1,includeFileHeaders:!1}},826(e,t){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.generateOptions=function(e,t){if("function"==typeof e)t.callback=e;else if(e)for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[n]=e[n]);return t}},839(e,t,n){"use strict";var r,i=this&&this.__extends||(r=function(e,t){return r=Object.setPrototypeOf||{__proto__:[]}instanceof Array&&function(e,t){e.__proto__=t}||function(e,t){for(var n in t)Object.prototype.hasOwnProperty.call(t,n)&&(e[n]=t[n])},r(e,t)},function(e,t){if("function"!=typeof t&&null!==t)throw new TypeError("Class extends value "+String(t)+" is not a constructor or null");function n(){this.constructor=e}r(e,t),e.prototype=null===t?Object.create(t):(n.prototype=t.prototype,new n)});Object.defineProperty(t,"__esModule",{value:!0}),t.lineDiff=void 0,t.diffLines=function(e,n,r){return t.lineDiff.diff(e,n,r)},t.diffTrimmedLines=function(e,n,r){return r=(0,s.generateOptions)(r,{ignoreWhitespace:!0}),t.lineDiff.diff(e,n,r)},t.tokenize=l;var o=n(188),s=n(826),a=function(e){function t(){var t=null!==e&&e.apply(this,arguments)||this;return t.tokenize=l,t}return i(t,e),t.prototype.equals=function(t,n,r){return r.ignoreWhitespace?(r.newlineIsToken&&t.includes("\\n")||(t=t.trim()),r.newlineIsToken&&n.includes("\\n")||(n=n.trim())):r.ignoreNewlineAtEof&&!r.newlineIsToken&&(t.endsWith("\\n")&&(t=t.slice(0,-1)),n.endsWith("\\n")&&(n=n.slice(0,-1))),e.prototype.equals.call(this,t,n,r)},t}(o.default);function l(e,t){t.stripTrailingCr&&(e=e.replace(/\\r\\n/g,"\\n"));var n=[],r=e.split(/(\\n|\\r\\n)/);r[r.length-1]||r.pop();for(var i=0;i<r.length;i++){var o=r[i];i%2&&!t.newlineIsToken?n[n.length-1]+=o:n.push(o)}return n}t.lineDiff=new a},843(e,t,n){"use strict";var r,i=this&&this.__extends||(r=function(e,t){return r=Object.setPrototypeOf||{__proto__:[]}instanceof Array&&function(e,t){e.__proto__=t}||function(e,t){for(var n in t)Object.prototype.hasOwnProperty.call(t,n)&&(e[n]=t[n])},r(e,t)},function(e,t){if("function"!=typeof t&&null!==t)throw new TypeError("Class extends value "+String(t)+" is not a constructor or null");function n(){this.constructor=e}r(e,t),e.prototype=null===t?Object.create(t):(n.prototype=t.prototype,new n)});Object.defineProperty(t,"__esModule",{value:!0}),t.jsonDiff=void 0,t.diffJson=function(e,n,r){return t.jsonDiff.diff(e,n,r)},t.canonicalize=l;var o=n(188),s=n(839),a=function(e){function t(){var t=null!==e&&e.apply(this,arguments)||this;return t.tokenize=s.tokenize,t}return i(t,e),Object.defineProperty(t.prototype,"useLongestToken",{get:function(){return!0},enumerable:!1,configurable:!0}),t.prototype.castInput=function(e,t){var n=t.undefinedReplacement,r=t.stringifyReplacer,i=void 0===r?function(e,t){return void 0===t?n:t}:r;return"string"==typeof e?e:JSON.stringify(l(e,null,null,i),null,"  ")},t.prototype.equals=function(t,n,r){return e.prototype.equals.call(this,t.replace(/,([\\r\\n])/g,"$1"),n.replace(/,([\\r\\n])/g,"$1"),r)},t}(o.default);function l(e,t,n,r,i){var o,s;for(t=t||[],n=n||[],r&&(e=r(void 0===i?"":i,e)),o=0;o<t.length;o+=1)if(t[o]===e)return n[o];if("[object Array]"===Object.prototype.toString.call(e)){for(t.push(e),s=new Array(e.length),n.push(s),o=0;o<e.length;o+=1)s[o]=l(e[o],t,n,r,String(o));return t.pop(),n.pop(),s}if(e&&e.toJSON&&(e=e.toJSON()),"object"==typeof e&&null!==e){t.push(e),s={},n.push(s);var a,c=[];for(a in e)Object.prototype.hasOwnProperty.call(e,a)&&c.push(a);for(c.sort(),o=0;o<c.length;o+=1)s[a=c[o]]=l(e[a],t,n,r,a);t.pop(),n.pop()}else s=e;return s}t.jsonDiff=new a},868(e,t){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.convertChangesToDMP=function(e){for(var t,n,r=[],i=0;i<e.length;i++)n=(t=e[i]).added?1:t.removed?-1:0,r.push([n,t.value]);return r}},895(e,t,n){"use strict";var r,i=this&&this.__createBinding||(Object.create?function(e,t,n,r){void 0===r&&(r=n);var i=Object.getOwnPropertyDescriptor(t,n);i&&!("get"in i?!t.__esModule:i.writable||i.configurable)||(i={enumerable:!0,get:function(){return t[n]}}),Object.defineProperty(e,r,i)}:function(e,t,n,r){void 0===r&&(r=n),e[r]=t[n]}),o=this&&this.__setModuleDefault||(Object.create?function(e,t){Object.defineProperty(e,"default",{enumerable:!0,value:t})}:function(e,t){e.default=t}),s=this&&this.__importStar||(r=function(e){return r=Object.getOwnPropertyNames||function(e){var t=[];for(var n in e)Object.prototype.hasOwnProperty.call(e,n)&&(t[t.length]=n);return t},r(e)},function(e){if(e&&e.__esModule)return e;var t={};if(null!=e)for(var n=r(e),s=0;s<n.length;s++)"default"!==n[s]&&i(t,e,n[s]);return o(t,e),t});Object.defineProperty(t,"__esModule",{value:!0}),t.defaultLineByLineRendererConfig=void 0;const a=s(n(598)),l=s(n(302)),c=n(613),u=n(185);t.defaultLineByLineRendererConfig=Object.assign(Object.assign({},l.defaultRenderConfig),{renderNothingWhenEmpty:!1,matchingMaxComparisons:2500,maxLineSizeInBlockForComparison:200});const f="generic",d="line-by-line";t.default=class{constructor(e,n={}){this.hoganUtils=e,this.config=Object.assign(Object.assign({},t.defaultLineByLineRendererConfig),n)}render(e){const t=e.map((e=>{let t;return t=e.blocks.length?this.generateFileHtml(e):this.generateEmptyDiff(),this.makeFileDiffHtml(e,t)})).join("\\n");return this.hoganUtils.render(f,"wrapper",{colorScheme:l.colorSchemeToCss(this.config.colorScheme),content:t})}makeFileDiffHtml(e,t){if(this.config.renderNothingWhenEmpty&&Array.isArray(e.blocks)&&0===e.blocks.length)return"";const n=this.hoganUtils.template(d,"file-diff"),r=this.hoganUtils.template(f,"file-path"),i=this.hoganUtils.template("icon","file"),o=this.hoganUtils.template("tag",l.getFileIcon(e));return n.render({file:e,fileHtmlId:l.getHtmlId(e),diffs:t,filePath:r.render({fileDiffName:l.filenameDiff(e)},{fileIcon:i,fileTag:o})})}generateEmptyDiff(){return this.hoganUtils.render(f,"empty-diff",{contentClass:"d2h-code-line",CSSLineClass:l.CSSLineClass})}generateFileHtml(e){const t=a.newMatcherFn(a.newDistanceFn((t=>l.deconstructLine(t.content,e.isCombined).content)));return e.blocks.map((n=>{let r=this.hoganUtils.render(f,"block-header",{CSSLineClass:l.CSSLineClass,blockHeader:e.isTooBig?n.header:l.escapeForHtml(n.header),lineClass:"d2h-code-linenumber",contentClass:"d2h-code-line"});return this.applyLineGroupping(n).forEach((([n,i,o])=>{if(i.length&&o.length&&!n.length)this.applyRematchMatching(i,o,t).map((([t,n])=>{const{left:i,right:o}=this.processChangedLines(e,e.isCombined,t,n);r+=i,r+=o}));else if(n.length)n.forEach((t=>{const{prefix:n,content:i}=l.deconstructLine(t.content,e.isCombined);r+=this.generateSingleLineHtml(e,{type:l.CSSLineClass.CONTEXT,prefix:n,content:i,oldNumber:t.oldNumber,newNumber:t.newNumber})}));else if(i.length||o.length){const{left:t,right:n}=this.processChangedLines(e,e.isCombined,i,o);r+=t,r+=n}else console.error("Unknown state reached while processing groups of lines",n,i,o)})),r})).join("\\n")}applyLineGroupping(e){const t=[];let n=[],r=[];for(let i=0;i<e.lines.length;i++){const o=e.lines[i];(o.type!==c.LineType.INSERT&&r.length||o.type===c.LineType.CONTEXT&&n.length>0)&&(t.push([[],n,r]),n=[],r=[]),o.type===c.LineType.CONTEXT?t.push([[o],[],[]]):o.type===c.LineType.INSERT&&0===n.length?t.push([[],[],[o]]):o.type===c.LineType.INSERT&&n.length>0?r.push(o):o.type===c.LineType.DELETE&&n.push(o)}return(n.length||r.length)&&(t.push([[],n,r]),n=[],r=[]),t}applyRematchMatching(e,t,n){const r=e.length*t.length,i=(0,u.max)(e.concat(t).map((e=>e.content.length)));return r<this.config.matchingMaxComparisons&&i<this.config.maxLineSizeInBlockForComparison&&("lines"===this.config.matching||"words"===this.config.matching)?n(e,t):[[e,t]]}processChangedLines(e,t,n,r){const i={right:"",left:""},o=Math.max(n.length,r.length);for(let s=0;s<o;s++){const o=n[s],a=r[s],c=void 0!==o&&void 0!==a?l.diffHighlight(o.content,a.content,t,this.config):void 0,u=void 0!==o&&void 0!==o.oldNumber?Object.assign(Object.assign({},void 0!==c?{prefix:c.oldLine.prefix,content:c.oldLine.content,type:l.CSSLineClass.DELETE_CHANGES}:Object.assign(Object.assign({},l.deconstructLine(o.content,t)),{type:l.toCSSClass(o.type)})),{oldNumber:o.oldNumber,newNumber:o.newNumber}):void 0,f=void 0!==a&&void 0!==a.newNumber?Object.assign(Object.assign({},void 0!==c?{prefix:c.newLine.prefix,content:c.newLine.content,type:l.CSSLineClass.INSERT_CHANGES}:Object.assign(Object.assign({},l.deconstructLine(a.content,t)),{type:l.toCSSClass(a.type)})),{oldNumber:a.oldNumber,newNumber:a.newNumber}):void 0,{left:d,right:h}=this.generateLineHtml(e,u,f);i.left+=d,i.right+=h}return i}generateLineHtml(e,t,n){return{left:this.generateSingleLineHtml(e,t),right:this.generateSingleLineHtml(e,n)}}generateSingleLineHtml(e,t){if(void 0===t)return"";const n=this.hoganUtils.render(d,"numbers",{oldNumber:t.oldNumber||"",newNumber:t.newNumber||""});return this.hoganUtils.render(f,"line",{type:t.type,lineClass:"d2h-code-linenumber",contentClass:"d2h-code-line",prefix:" "===t.prefix?"&nbsp;":t.prefix,content:t.content,lineNumber:n,line:t,file:e})}}},904(e,t,n){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.applyPatch=a,t.applyPatches=function(e,t){var n="string"==typeof e?(0,o.parsePatch)(e):e,r=0;!function e(){var i=n[r++];if(!i)return t.complete();t.loadFile(i,(function(n,r){if(n)return t.complete(n);var o=a(r,i,t);t.patched(i,o,(function(n){if(n)return t.complete(n);e()}))}))}()};var r=n(665),i=n(725),o=n(363),s=n(738);function a(e,t,n){var a;if(void 0===n&&(n={}),(a="string"==typeof t?(0,o.parsePatch)(t):Array.isArray(t)?t:[t]).length>1)throw new Error("applyPatch only works with a single input.");return function(e,t,n){void 0===n&&(n={}),(n.autoConvertLineEndings||null==n.autoConvertLineEndings)&&((0,r.hasOnlyWinLineEndings)(e)&&(0,i.isUnix)(t)?t=(0,i.unixToWin)(t):(0,r.hasOnlyUnixLineEndings)(e)&&(0,i.isWin)(t)&&(t=(0,i.winToUnix)(t)));var o=e.split("\\n"),a=t.hunks,l=n.compareLine||function(e,t,n,r){return t===r},c=n.fuzzFactor||0,u=0;if(c<0||!Number.isInteger(c))throw new Error("fuzzFactor must be a non-negative integer");if(!a.length)return e;for(var f="",d=!1,h=!1,p=0;p<a[a.length-1].lines.length;p++)"\\\\"==(T=a[a.length-1].lines[p])[0]&&("+"==f[0]?d=!0:"-"==f[0]&&(h=!0)),f=T;if(d){if(h){if(!c&&""==o[o.length-1])return!1}else if(""==o[o.length-1])o.pop();else if(!c)return!1}else if(h)if(""!=o[o.length-1])o.push("");else if(!c)return!1;function b(e,t,n,r,i,s,a){void 0===r&&(r=0),void 0===i&&(i=!0),void 0===s&&(s=[]),void 0===a&&(a=0);for(var c=0,u=!1;r<e.length;r++){var f=e[r],d=f.length>0?f[0]:" ",h=f.length>0?f.substr(1):f;if("-"===d){if(!l(t+1,o[t],d,h))return n&&null!=o[t]?(s[a]=o[t],b(e,t+1,n-1,r,!1,s,a+1)):null;t++,c=0}if("+"===d){if(!i)return null;s[a]=h,a++,c=0,u=!0}if(" "===d){if(c++,s[a]=o[t],!l(t+1,o[t],d,h))return u||!n?null:o[t]&&(b(e,t+1,n-1,r+1,!1,s,a+1)||b(e,t+1,n-1,r,!1,s,a+1))||b(e,t,n-1,r+1,!1,s,a);a++,i=!0,u=!1,t++}}return a-=c,t-=c,s.length=a,{patchedLines:s,oldLineLastI:t-1}}var g=[],v=0;for(p=0;p<a.length;p++){for(var m=a[p],y=void 0,w=o.length-m.oldLines+c,O=void 0,_=0;_<=c;_++){O=m.oldStart+v-1;for(var S=(0,s.default)(O,u,w);void 0!==O&&!(y=b(m.lines,O,_));O=S());if(y)break}if(!y)return!1;for(var C=u;C<O;C++)g.push(o[C]);for(var L=0;L<y.patchedLines.length;L++){var T=y.patchedLines[L];g.push(T)}u=y.oldLineLastI+1,v=O+1-m.oldStart}for(p=u;p<o.length;p++)g.push(o[p]);return g.join("\\n")}(e,a[0],n)}},957(e,t,n){"use strict";Object.defineProperty(t,"__esModule",{value:!0}),t.parse=function(e,t={}){const n=[];let i=null,a=null,c=null,u=null,f=null,d=null,h=null;const p="--- ",b="+++ ",g="@@",v=/^old mode (\\d{6})/,m=/^new mode (\\d{6})/,y=/^deleted file mode (\\d{6})/,w=/^new file mode (\\d{6})/,O=/^copy from "?(.+)"?/,_=/^copy to "?(.+)"?/,S=/^rename from "?(.+)"?/,C=/^rename to "?(.+)"?/,L=/^similarity index (\\d+)%/,T=/^dissimilarity index (\\d+)%/,j=/^index ([\\da-z]+)\\.\\.([\\da-z]+)\\s*(\\d{6})?/,x=/^Binary files (.*) and (.*) differ/,P=/^GIT binary patch/,E=/^index ([\\da-z]+),([\\da-z]+)\\.\\.([\\da-z]+)/,N=/^mode (\\d{6}),(\\d{6})\\.\\.(\\d{6})/,D=/^new file mode (\\d{6})/,k=/^deleted file mode (\\d{6}),(\\d{6})/,H=e.replace(/\\\\ No newline at end of file/g,"").replace(/\\r\\n?/g,"\\n").split("\\n");function M(){null!==a&&null!==i&&(i.blocks.push(a),a=null)}function W(){null!==i&&(i.oldName||null===d||(i.oldName=d),i.newName||null===h||(i.newName=h),i.newName&&(n.push(i),i=null)),d=null,h=null}function I(){M(),W(),i={blocks:[],deletedLines:0,addedLines:0}}function F(e){let t;M(),null!==i&&((t=/^@@ -(\\d+)(?:,\\d+)? \\+(\\d+)(?:,\\d+)? @@.*/.exec(e))?(i.isCombined=!1,c=parseInt(t[1],10),f=parseInt(t[2],10)):(t=/^@@@ -(\\d+)(?:,\\d+)? -(\\d+)(?:,\\d+)? \\+(\\d+)(?:,\\d+)? @@@.*/.exec(e))?(i.isCombined=!0,c=parseInt(t[1],10),u=parseInt(t[2],10),f=parseInt(t[3],10)):(e.startsWith(g)&&console.error("Failed to parse lines, starting in 0!"),c=0,f=0,i.isCombined=!1)),a={lines:[],oldStartLine:c,oldStartLine2:u,newStartLine:f,header:e}}return H.forEach(((e,u)=>{if(!e||e.startsWith("*"))return;let M;const W=H[u-1],A=H[u+1],R=H[u+2];if(e.startsWith("diff --git")||e.startsWith("diff --combined")){if(I(),(M=/^diff --git "?([a-ciow]\\/.+)"? "?([a-ciow]\\/.+)"?/.exec(e))&&(d=l(M[1],void 0,t.dstPrefix),h=l(M[2],void 0,t.srcPrefix)),null===i)throw new Error("Where is my file !!!");return void(i.isGitDiff=!0)}if(e.startsWith("Binary files")&&!(null==i?void 0:i.isGitDiff)){if(I(),(M=/^Binary files "?([a-ciow]\\/.+)"? and "?([a-ciow]\\/.+)"? differ/.exec(e))&&(d=l(M[1],void 0,t.dstPrefix),h=l(M[2],void 0,t.srcPrefix)),null===i)throw new Error("Where is my file !!!");return void(i.isBinary=!0)}if((!i||!i.isGitDiff&&i&&e.startsWith(p)&&A.startsWith(b)&&R.startsWith(g))&&I(),null==i?void 0:i.isTooBig)return;if(i&&("number"==typeof t.diffMaxChanges&&i.addedLines+i.deletedLines>t.diffMaxChanges||"number"==typeof t.diffMaxLineLength&&e.length>t.diffMaxLineLength))return i.isTooBig=!0,i.addedLines=0,i.deletedLines=0,i.blocks=[],a=null,void F("function"==typeof t.diffTooBigMessage?t.diffTooBigMessage(n.length):"Diff too big to be displayed");if(e.startsWith(p)&&A.startsWith(b)||e.startsWith(b)&&W.startsWith(p)){if(i&&!i.oldName&&e.startsWith("--- ")&&(M=function(e,t){return l(e,"---",t)}(e,t.srcPrefix)))return i.oldName=M,void(i.language=o(i.oldName,i.language));if(i&&!i.newName&&e.startsWith("+++ ")&&(M=function(e,t){return l(e,"+++",t)}(e,t.dstPrefix)))return i.newName=M,void(i.language=o(i.newName,i.language))}if(i&&(e.startsWith(g)||i.isGitDiff&&i.oldName&&i.newName&&!a))return void F(e);if(a&&(e.startsWith("+")||e.startsWith("-")||e.startsWith(" ")))return void function(e){if(null===i||null===a||null===c||null===f)return;const t={content:e},n=i.isCombined?["+ "," +","++"]:["+"],o=i.isCombined?["- "," -","--"]:["-"];s(e,n)?(i.addedLines++,t.type=r.LineType.INSERT,t.oldNumber=void 0,t.newNumber=f++):s(e,o)?(i.deletedLines++,t.type=r.LineType.DELETE,t.oldNumber=c++,t.newNumber=void 0):(t.type=r.LineType.CONTEXT,t.oldNumber=c++,t.newNumber=f++),a.lines.push(t)}(e);const z=!function(e,t){let n=t;for(;n<H.length-3;){if(e.startsWith("diff"))return!1;if(H[n].startsWith(p)&&H[n+1].startsWith(b)&&H[n+2].startsWith(g))return!0;n++}return!1}(e,u);if(null===i)throw new Error("Where is my file !!!");(M=v.exec(e))?i.oldMode=M[1]:(M=m.exec(e))?i.newMode=M[1]:(M=y.exec(e))?(i.deletedFileMode=M[1],i.isDeleted=!0):(M=w.exec(e))?(i.newFileMode=M[1],i.isNew=!0):(M=O.exec(e))?(z&&(i.oldName=M[1]),i.isCopy=!0):(M=_.exec(e))?(z&&(i.newName=M[1]),i.isCopy=!0):(M=S.exec(e))?(z&&(i.oldName=M[1]),i.isRename=!0):(M=C.exec(e))?(z&&(i.newName=M[1]),i.isRename=!0):(M=x.exec(e))?(i.isBinary=!0,i.oldName=l(M[1],void 0,t.srcPrefix),i.newName=l(M[2],void 0,t.dstPrefix),F("Binary file")):P.test(e)?(i.isBinary=!0,F(e)):(M=L.exec(e))?i.unchangedPercentage=parseInt(M[1],10):(M=T.exec(e))?i.changedPercentage=parseInt(M[1],10):(M=j.exec(e))?(i.checksumBefore=M[1],i.checksumAfter=M[2],M[3]&&(i.mode=M[3])):(M=E.exec(e))?(i.checksumBefore=[M[2],M[3]],i.checksumAfter=M[1]):(M=N.exec(e))?(i.oldMode=[M[2],M[3]],i.newMode=M[1]):(M=D.exec(e))?(i.newFileMode=M[1],i.isNew=!0):(M=k.exec(e))&&(i.deletedFileMode=M[1],i.isDeleted=!0)})),M(),W(),n};const r=n(613),i=n(185);function o(e,t){const n=e.split(".");return n.length>1?n[n.length-1]:t}function s(e,t){return t.reduce(((t,n)=>t||e.startsWith(n)),!1)}const a=["a/","b/","i/","w/","c/","o/"];function l(e,t,n){const r=void 0!==n?[...a,n]:a,o=t?new RegExp(\`^\${(0,i.escapeForRegExp)(t)} "?(.+?)"?$\`):new RegExp('^"?(.+?)"?$'),[,s=""]=o.exec(e)||[],l=r.find((e=>0===s.indexOf(e)));return(l?s.slice(l.length):s).replace(/\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)? [+-]\\d{4}.*$/,"")}},968(e,t,n){"use strict";var r,i=this&&this.__extends||(r=function(e,t){return r=Object.setPrototypeOf||{__proto__:[]}instanceof Array&&function(e,t){e.__proto__=t}||function(e,t){for(var n in t)Object.prototype.hasOwnProperty.call(t,n)&&(e[n]=t[n])},r(e,t)},function(e,t){if("function"!=typeof t&&null!==t)throw new TypeError("Class extends value "+String(t)+" is not a constructor or null");function n(){this.constructor=e}r(e,t),e.prototype=null===t?Object.create(t):(n.prototype=t.prototype,new n)});Object.defineProperty(t,"__esModule",{value:!0}),t.arrayDiff=void 0,t.diffArrays=function(e,n,r){return t.arrayDiff.diff(e,n,r)};var o=function(e){function t(){return null!==e&&e.apply(this,arguments)||this}return i(t,e),t.prototype.tokenize=function(e){return e.slice()},t.prototype.join=function(e){return e},t.prototype.removeEmpty=function(e){return e},t}(n(188).default);t.arrayDiff=new o}},t={},function n(r){var i=t[r];if(void 0!==i)return i.exports;var o=t[r]={exports:{}};return e[r].call(o.exports,o,o.exports,n),o.exports}(166);var e,t}));`, diff2htmlCss: ':host,:root{--d2h-bg-color:#fff;--d2h-border-color:#ddd;--d2h-dim-color:rgba(0,0,0,.3);--d2h-line-border-color:#eee;--d2h-file-header-bg-color:#f7f7f7;--d2h-file-header-border-color:#d8d8d8;--d2h-empty-placeholder-bg-color:#f1f1f1;--d2h-empty-placeholder-border-color:#e1e1e1;--d2h-selected-color:#c8e1ff;--d2h-ins-bg-color:#dfd;--d2h-ins-border-color:#b4e2b4;--d2h-ins-highlight-bg-color:#97f295;--d2h-ins-label-color:#399839;--d2h-del-bg-color:#fee8e9;--d2h-del-border-color:#e9aeae;--d2h-del-highlight-bg-color:#ffb6ba;--d2h-del-label-color:#c33;--d2h-change-del-color:#fdf2d0;--d2h-change-ins-color:#ded;--d2h-info-bg-color:#f8fafd;--d2h-info-border-color:#d5e4f2;--d2h-change-label-color:#d0b44c;--d2h-moved-label-color:#3572b0;--d2h-dark-color:#e6edf3;--d2h-dark-bg-color:#0d1117;--d2h-dark-border-color:#30363d;--d2h-dark-dim-color:#6e7681;--d2h-dark-line-border-color:#21262d;--d2h-dark-file-header-bg-color:#161b22;--d2h-dark-file-header-border-color:#30363d;--d2h-dark-empty-placeholder-bg-color:hsla(215,8%,47%,.1);--d2h-dark-empty-placeholder-border-color:#30363d;--d2h-dark-selected-color:rgba(56,139,253,.1);--d2h-dark-ins-bg-color:rgba(46,160,67,.15);--d2h-dark-ins-border-color:rgba(46,160,67,.4);--d2h-dark-ins-highlight-bg-color:rgba(46,160,67,.4);--d2h-dark-ins-label-color:#3fb950;--d2h-dark-del-bg-color:rgba(248,81,73,.1);--d2h-dark-del-border-color:rgba(248,81,73,.4);--d2h-dark-del-highlight-bg-color:rgba(248,81,73,.4);--d2h-dark-del-label-color:#f85149;--d2h-dark-change-del-color:rgba(210,153,34,.2);--d2h-dark-change-ins-color:rgba(46,160,67,.25);--d2h-dark-info-bg-color:rgba(56,139,253,.1);--d2h-dark-info-border-color:rgba(56,139,253,.4);--d2h-dark-change-label-color:#d29922;--d2h-dark-moved-label-color:#3572b0}.d2h-wrapper{text-align:left}.d2h-file-header{background-color:#f7f7f7;background-color:var(--d2h-file-header-bg-color);border-bottom:1px solid #d8d8d8;border-bottom:1px solid var(--d2h-file-header-border-color);display:-webkit-box;display:-ms-flexbox;display:flex;font-family:Source Sans Pro,Helvetica Neue,Helvetica,Arial,sans-serif;height:35px;padding:5px 10px}.d2h-file-header.d2h-sticky-header{position:sticky;top:0;z-index:1}.d2h-file-stats{display:-webkit-box;display:-ms-flexbox;display:flex;font-size:14px;margin-left:auto}.d2h-lines-added{border:1px solid #b4e2b4;border:1px solid var(--d2h-ins-border-color);border-radius:5px 0 0 5px;color:#399839;color:var(--d2h-ins-label-color);padding:2px;text-align:right;vertical-align:middle}.d2h-lines-deleted{border:1px solid #e9aeae;border:1px solid var(--d2h-del-border-color);border-radius:0 5px 5px 0;color:#c33;color:var(--d2h-del-label-color);margin-left:1px;padding:2px;text-align:left;vertical-align:middle}.d2h-file-name-wrapper{display:-webkit-box;display:-ms-flexbox;display:flex;-webkit-box-align:center;-ms-flex-align:center;align-items:center;font-size:15px;width:100%}.d2h-file-name{overflow-x:hidden;text-overflow:ellipsis;white-space:nowrap}.d2h-file-wrapper{border:1px solid #ddd;border:1px solid var(--d2h-border-color);border-radius:3px;margin-bottom:1em}.d2h-file-collapse{-webkit-box-pack:end;-ms-flex-pack:end;cursor:pointer;display:none;font-size:12px;justify-content:flex-end;-webkit-box-align:center;-ms-flex-align:center;align-items:center;border:1px solid #ddd;border:1px solid var(--d2h-border-color);border-radius:3px;padding:4px 8px}.d2h-file-collapse.d2h-selected{background-color:#c8e1ff;background-color:var(--d2h-selected-color)}.d2h-file-collapse-input{margin:0 4px 0 0}.d2h-diff-table{border-collapse:collapse;font-family:Menlo,Consolas,monospace;font-size:13px;width:100%}.d2h-files-diff{display:-webkit-box;display:-ms-flexbox;display:flex;width:100%}.d2h-file-diff{overflow-y:hidden}.d2h-file-diff.d2h-d-none,.d2h-files-diff.d2h-d-none{display:none}.d2h-file-side-diff{display:inline-block;overflow-x:scroll;overflow-y:hidden;width:50%}.d2h-code-line{padding:0 8em;width:calc(100% - 16em)}.d2h-code-line,.d2h-code-side-line{display:inline-block;-webkit-user-select:none;-moz-user-select:none;-ms-user-select:none;user-select:none;white-space:nowrap}.d2h-code-side-line{padding:0 4.5em;width:calc(100% - 9em)}.d2h-code-line-ctn{background:none;display:inline-block;padding:0;word-wrap:normal;-webkit-user-select:text;-moz-user-select:text;-ms-user-select:text;user-select:text;vertical-align:middle;white-space:pre;width:100%}.d2h-code-line del,.d2h-code-side-line del{background-color:#ffb6ba;background-color:var(--d2h-del-highlight-bg-color)}.d2h-code-line del,.d2h-code-line ins,.d2h-code-side-line del,.d2h-code-side-line ins{border-radius:.2em;display:inline-block;margin-top:-1px;-webkit-text-decoration:none;text-decoration:none}.d2h-code-line ins,.d2h-code-side-line ins{background-color:#97f295;background-color:var(--d2h-ins-highlight-bg-color);text-align:left}.d2h-code-line-prefix{background:none;display:inline;padding:0;word-wrap:normal;white-space:pre}.line-num1{float:left}.line-num1,.line-num2{-webkit-box-sizing:border-box;box-sizing:border-box;overflow:hidden;padding:0 .5em;text-overflow:ellipsis;width:3.5em}.line-num2{float:right}.d2h-code-linenumber{background-color:#fff;background-color:var(--d2h-bg-color);border:solid #eee;border:solid var(--d2h-line-border-color);border-width:0 1px;-webkit-box-sizing:border-box;box-sizing:border-box;color:rgba(0,0,0,.3);color:var(--d2h-dim-color);cursor:pointer;display:inline-block;position:absolute;text-align:right;width:7.5em}.d2h-code-linenumber:after{content:"\\200b"}.d2h-code-side-linenumber{background-color:#fff;background-color:var(--d2h-bg-color);border:solid #eee;border:solid var(--d2h-line-border-color);border-width:0 1px;-webkit-box-sizing:border-box;box-sizing:border-box;color:rgba(0,0,0,.3);color:var(--d2h-dim-color);cursor:pointer;display:inline-block;overflow:hidden;padding:0 .5em;position:absolute;text-align:right;text-overflow:ellipsis;width:4em}.d2h-code-side-linenumber:after{content:"\\200b"}.d2h-code-side-emptyplaceholder,.d2h-emptyplaceholder{background-color:#f1f1f1;background-color:var(--d2h-empty-placeholder-bg-color);border-color:#e1e1e1;border-color:var(--d2h-empty-placeholder-border-color)}.d2h-code-line-prefix,.d2h-code-linenumber,.d2h-code-side-linenumber,.d2h-emptyplaceholder{-webkit-user-select:none;-moz-user-select:none;-ms-user-select:none;user-select:none}.d2h-code-linenumber,.d2h-code-side-linenumber{direction:rtl}.d2h-del{background-color:#fee8e9;background-color:var(--d2h-del-bg-color);border-color:#e9aeae;border-color:var(--d2h-del-border-color)}.d2h-ins{background-color:#dfd;background-color:var(--d2h-ins-bg-color);border-color:#b4e2b4;border-color:var(--d2h-ins-border-color)}.d2h-info{background-color:#f8fafd;background-color:var(--d2h-info-bg-color);border-color:#d5e4f2;border-color:var(--d2h-info-border-color);color:rgba(0,0,0,.3);color:var(--d2h-dim-color)}.d2h-file-diff .d2h-del.d2h-change{background-color:#fdf2d0;background-color:var(--d2h-change-del-color)}.d2h-file-diff .d2h-ins.d2h-change{background-color:#ded;background-color:var(--d2h-change-ins-color)}.d2h-file-list-wrapper{margin-bottom:10px}.d2h-file-list-wrapper a{-webkit-text-decoration:none;text-decoration:none}.d2h-file-list-wrapper a,.d2h-file-list-wrapper a:visited{color:#3572b0;color:var(--d2h-moved-label-color)}.d2h-file-list-header{text-align:left}.d2h-file-list-title{font-weight:700}.d2h-file-list-line{display:-webkit-box;display:-ms-flexbox;display:flex;text-align:left}.d2h-file-list{display:block;list-style:none;margin:0;padding:0}.d2h-file-list>li{border-bottom:1px solid #ddd;border-bottom:1px solid var(--d2h-border-color);margin:0;padding:5px 10px}.d2h-file-list>li:last-child{border-bottom:none}.d2h-file-switch{cursor:pointer;display:none;font-size:10px}.d2h-icon{fill:currentColor;margin-right:10px;vertical-align:middle}.d2h-deleted{color:#c33;color:var(--d2h-del-label-color)}.d2h-added{color:#399839;color:var(--d2h-ins-label-color)}.d2h-changed{color:#d0b44c;color:var(--d2h-change-label-color)}.d2h-moved{color:#3572b0;color:var(--d2h-moved-label-color)}.d2h-tag{background-color:#fff;background-color:var(--d2h-bg-color);display:-webkit-box;display:-ms-flexbox;display:flex;font-size:10px;margin-left:5px;padding:0 2px}.d2h-deleted-tag{border:1px solid #c33;border:1px solid var(--d2h-del-label-color)}.d2h-added-tag{border:1px solid #399839;border:1px solid var(--d2h-ins-label-color)}.d2h-changed-tag{border:1px solid #d0b44c;border:1px solid var(--d2h-change-label-color)}.d2h-moved-tag{border:1px solid #3572b0;border:1px solid var(--d2h-moved-label-color)}.d2h-dark-color-scheme{background-color:#0d1117;background-color:var(--d2h-dark-bg-color);color:#e6edf3;color:var(--d2h-dark-color)}.d2h-dark-color-scheme .d2h-file-header{background-color:#161b22;background-color:var(--d2h-dark-file-header-bg-color);border-bottom:#30363d;border-bottom:var(--d2h-dark-file-header-border-color)}.d2h-dark-color-scheme .d2h-lines-added{border:1px solid rgba(46,160,67,.4);border:1px solid var(--d2h-dark-ins-border-color);color:#3fb950;color:var(--d2h-dark-ins-label-color)}.d2h-dark-color-scheme .d2h-lines-deleted{border:1px solid rgba(248,81,73,.4);border:1px solid var(--d2h-dark-del-border-color);color:#f85149;color:var(--d2h-dark-del-label-color)}.d2h-dark-color-scheme .d2h-code-line del,.d2h-dark-color-scheme .d2h-code-side-line del{background-color:rgba(248,81,73,.4);background-color:var(--d2h-dark-del-highlight-bg-color)}.d2h-dark-color-scheme .d2h-code-line ins,.d2h-dark-color-scheme .d2h-code-side-line ins{background-color:rgba(46,160,67,.4);background-color:var(--d2h-dark-ins-highlight-bg-color)}.d2h-dark-color-scheme .d2h-diff-tbody{border-color:#30363d;border-color:var(--d2h-dark-border-color)}.d2h-dark-color-scheme .d2h-code-side-linenumber{background-color:#0d1117;background-color:var(--d2h-dark-bg-color);border-color:#21262d;border-color:var(--d2h-dark-line-border-color);color:#6e7681;color:var(--d2h-dark-dim-color)}.d2h-dark-color-scheme .d2h-files-diff .d2h-code-side-emptyplaceholder,.d2h-dark-color-scheme .d2h-files-diff .d2h-emptyplaceholder{background-color:hsla(215,8%,47%,.1);background-color:var(--d2h-dark-empty-placeholder-bg-color);border-color:#30363d;border-color:var(--d2h-dark-empty-placeholder-border-color)}.d2h-dark-color-scheme .d2h-code-linenumber{background-color:#0d1117;background-color:var(--d2h-dark-bg-color);border-color:#21262d;border-color:var(--d2h-dark-line-border-color);color:#6e7681;color:var(--d2h-dark-dim-color)}.d2h-dark-color-scheme .d2h-del{background-color:rgba(248,81,73,.1);background-color:var(--d2h-dark-del-bg-color);border-color:rgba(248,81,73,.4);border-color:var(--d2h-dark-del-border-color)}.d2h-dark-color-scheme .d2h-ins{background-color:rgba(46,160,67,.15);background-color:var(--d2h-dark-ins-bg-color);border-color:rgba(46,160,67,.4);border-color:var(--d2h-dark-ins-border-color)}.d2h-dark-color-scheme .d2h-info{background-color:rgba(56,139,253,.1);background-color:var(--d2h-dark-info-bg-color);border-color:rgba(56,139,253,.4);border-color:var(--d2h-dark-info-border-color);color:#6e7681;color:var(--d2h-dark-dim-color)}.d2h-dark-color-scheme .d2h-file-diff .d2h-del.d2h-change{background-color:rgba(210,153,34,.2);background-color:var(--d2h-dark-change-del-color)}.d2h-dark-color-scheme .d2h-file-diff .d2h-ins.d2h-change{background-color:rgba(46,160,67,.25);background-color:var(--d2h-dark-change-ins-color)}.d2h-dark-color-scheme .d2h-file-wrapper{border:1px solid #30363d;border:1px solid var(--d2h-dark-border-color)}.d2h-dark-color-scheme .d2h-file-collapse{border:1px solid #0d1117;border:1px solid var(--d2h-dark-bg-color)}.d2h-dark-color-scheme .d2h-file-collapse.d2h-selected{background-color:rgba(56,139,253,.1);background-color:var(--d2h-dark-selected-color)}.d2h-dark-color-scheme .d2h-file-list-wrapper a,.d2h-dark-color-scheme .d2h-file-list-wrapper a:visited{color:#3572b0;color:var(--d2h-dark-moved-label-color)}.d2h-dark-color-scheme .d2h-file-list>li{border-bottom:1px solid #0d1117;border-bottom:1px solid var(--d2h-dark-bg-color)}.d2h-dark-color-scheme .d2h-deleted{color:#f85149;color:var(--d2h-dark-del-label-color)}.d2h-dark-color-scheme .d2h-added{color:#3fb950;color:var(--d2h-dark-ins-label-color)}.d2h-dark-color-scheme .d2h-changed{color:#d29922;color:var(--d2h-dark-change-label-color)}.d2h-dark-color-scheme .d2h-moved{color:#3572b0;color:var(--d2h-dark-moved-label-color)}.d2h-dark-color-scheme .d2h-tag{background-color:#0d1117;background-color:var(--d2h-dark-bg-color)}.d2h-dark-color-scheme .d2h-deleted-tag{border:1px solid #f85149;border:1px solid var(--d2h-dark-del-label-color)}.d2h-dark-color-scheme .d2h-added-tag{border:1px solid #3fb950;border:1px solid var(--d2h-dark-ins-label-color)}.d2h-dark-color-scheme .d2h-changed-tag{border:1px solid #d29922;border:1px solid var(--d2h-dark-change-label-color)}.d2h-dark-color-scheme .d2h-moved-tag{border:1px solid #3572b0;border:1px solid var(--d2h-dark-moved-label-color)}@media (prefers-color-scheme:dark){.d2h-auto-color-scheme{background-color:#0d1117;background-color:var(--d2h-dark-bg-color);color:#e6edf3;color:var(--d2h-dark-color)}.d2h-auto-color-scheme .d2h-file-header{background-color:#161b22;background-color:var(--d2h-dark-file-header-bg-color);border-bottom:#30363d;border-bottom:var(--d2h-dark-file-header-border-color)}.d2h-auto-color-scheme .d2h-lines-added{border:1px solid rgba(46,160,67,.4);border:1px solid var(--d2h-dark-ins-border-color);color:#3fb950;color:var(--d2h-dark-ins-label-color)}.d2h-auto-color-scheme .d2h-lines-deleted{border:1px solid rgba(248,81,73,.4);border:1px solid var(--d2h-dark-del-border-color);color:#f85149;color:var(--d2h-dark-del-label-color)}.d2h-auto-color-scheme .d2h-code-line del,.d2h-auto-color-scheme .d2h-code-side-line del{background-color:rgba(248,81,73,.4);background-color:var(--d2h-dark-del-highlight-bg-color)}.d2h-auto-color-scheme .d2h-code-line ins,.d2h-auto-color-scheme .d2h-code-side-line ins{background-color:rgba(46,160,67,.4);background-color:var(--d2h-dark-ins-highlight-bg-color)}.d2h-auto-color-scheme .d2h-diff-tbody{border-color:#30363d;border-color:var(--d2h-dark-border-color)}.d2h-auto-color-scheme .d2h-code-side-linenumber{background-color:#0d1117;background-color:var(--d2h-dark-bg-color);border-color:#21262d;border-color:var(--d2h-dark-line-border-color);color:#6e7681;color:var(--d2h-dark-dim-color)}.d2h-auto-color-scheme .d2h-files-diff .d2h-code-side-emptyplaceholder,.d2h-auto-color-scheme .d2h-files-diff .d2h-emptyplaceholder{background-color:hsla(215,8%,47%,.1);background-color:var(--d2h-dark-empty-placeholder-bg-color);border-color:#30363d;border-color:var(--d2h-dark-empty-placeholder-border-color)}.d2h-auto-color-scheme .d2h-code-linenumber{background-color:#0d1117;background-color:var(--d2h-dark-bg-color);border-color:#21262d;border-color:var(--d2h-dark-line-border-color);color:#6e7681;color:var(--d2h-dark-dim-color)}.d2h-auto-color-scheme .d2h-del{background-color:rgba(248,81,73,.1);background-color:var(--d2h-dark-del-bg-color);border-color:rgba(248,81,73,.4);border-color:var(--d2h-dark-del-border-color)}.d2h-auto-color-scheme .d2h-ins{background-color:rgba(46,160,67,.15);background-color:var(--d2h-dark-ins-bg-color);border-color:rgba(46,160,67,.4);border-color:var(--d2h-dark-ins-border-color)}.d2h-auto-color-scheme .d2h-info{background-color:rgba(56,139,253,.1);background-color:var(--d2h-dark-info-bg-color);border-color:rgba(56,139,253,.4);border-color:var(--d2h-dark-info-border-color);color:#6e7681;color:var(--d2h-dark-dim-color)}.d2h-auto-color-scheme .d2h-file-diff .d2h-del.d2h-change{background-color:rgba(210,153,34,.2);background-color:var(--d2h-dark-change-del-color)}.d2h-auto-color-scheme .d2h-file-diff .d2h-ins.d2h-change{background-color:rgba(46,160,67,.25);background-color:var(--d2h-dark-change-ins-color)}.d2h-auto-color-scheme .d2h-file-wrapper{border:1px solid #30363d;border:1px solid var(--d2h-dark-border-color)}.d2h-auto-color-scheme .d2h-file-collapse{border:1px solid #0d1117;border:1px solid var(--d2h-dark-bg-color)}.d2h-auto-color-scheme .d2h-file-collapse.d2h-selected{background-color:rgba(56,139,253,.1);background-color:var(--d2h-dark-selected-color)}.d2h-auto-color-scheme .d2h-file-list-wrapper a,.d2h-auto-color-scheme .d2h-file-list-wrapper a:visited{color:#3572b0;color:var(--d2h-dark-moved-label-color)}.d2h-auto-color-scheme .d2h-file-list>li{border-bottom:1px solid #0d1117;border-bottom:1px solid var(--d2h-dark-bg-color)}.d2h-dark-color-scheme .d2h-deleted{color:#f85149;color:var(--d2h-dark-del-label-color)}.d2h-auto-color-scheme .d2h-added{color:#3fb950;color:var(--d2h-dark-ins-label-color)}.d2h-auto-color-scheme .d2h-changed{color:#d29922;color:var(--d2h-dark-change-label-color)}.d2h-auto-color-scheme .d2h-moved{color:#3572b0;color:var(--d2h-dark-moved-label-color)}.d2h-auto-color-scheme .d2h-tag{background-color:#0d1117;background-color:var(--d2h-dark-bg-color)}.d2h-auto-color-scheme .d2h-deleted-tag{border:1px solid #f85149;border:1px solid var(--d2h-dark-del-label-color)}.d2h-auto-color-scheme .d2h-added-tag{border:1px solid #3fb950;border:1px solid var(--d2h-dark-ins-label-color)}.d2h-auto-color-scheme .d2h-changed-tag{border:1px solid #d29922;border:1px solid var(--d2h-dark-change-label-color)}.d2h-auto-color-scheme .d2h-moved-tag{border:1px solid #3572b0;border:1px solid var(--d2h-dark-moved-label-color)}}' });
}
var init_assets = __esm({
  "src/report/assets.ts"() {
    "use strict";
  }
});

// src/report/dotenv.ts
function dotenvVariables(report3) {
  const last = report3.snapshots.at(-1);
  const failed = report3.verification.checks.filter((c) => !c.ok).length;
  const vars = [
    ["AGENTGATE_RUN_ID", report3.run.runId],
    ["AGENTGATE_BRANCH", report3.branch],
    ["AGENTGATE_BEFORE_SHA", report3.beforeSha],
    ["AGENTGATE_AFTER_SHA", report3.afterSha],
    ["AGENTGATE_ITERATIONS", report3.totals.iterations],
    ["AGENTGATE_FILES_CHANGED", report3.totals.filesChanged],
    ["AGENTGATE_INSERTIONS", report3.totals.insertions],
    ["AGENTGATE_DELETIONS", report3.totals.deletions],
    ["AGENTGATE_VERIFIED", report3.verification.ok],
    ["AGENTGATE_FAILED_CHECKS", failed],
    ["AGENTGATE_LAST_SNAPSHOT_ID", last?.id],
    ["AGENTGATE_LAST_ITERATION", last?.iteration],
    ["AGENTGATE_LAST_TASK", last?.task],
    ["AGENTGATE_LAST_GATE", last?.gate],
    ["AGENTGATE_WORKSPACE", report3.run.workspace],
    ["AGENTGATE_GENERATED_AT", report3.generatedAt]
  ];
  return vars.slice(0, DOTENV_MAX_VARIABLES).map(([k, v]) => [k, safeValue(v === null || v === void 0 ? "" : String(v))]);
}
function renderDotenv(report3) {
  let out = "";
  for (const [k, v] of dotenvVariables(report3)) {
    const line = `${k}=${v}
`;
    if (Buffer.byteLength(out + line, "utf8") > DOTENV_MAX_BYTES) break;
    out += line;
  }
  return out;
}
function safeValue(text) {
  const plain = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/["'`$\\]/g, "_").replace(/\s+/g, " ").trim();
  return [...plain].slice(0, TEXT_LIMIT).join("");
}
var DOTENV_MAX_VARIABLES, DOTENV_MAX_BYTES, TEXT_LIMIT;
var init_dotenv = __esm({
  "src/report/dotenv.ts"() {
    "use strict";
    DOTENV_MAX_VARIABLES = 50;
    DOTENV_MAX_BYTES = 5 * 1024;
    TEXT_LIMIT = 200;
  }
});

// src/report/html.ts
import { createHash as createHash5 } from "node:crypto";
function renderHtml({ report: report3, diffs, assets }) {
  const data = {
    eager: EAGER_FILES,
    page: FILES_PAGE,
    iterations: report3.snapshots.map((s, i) => ({
      iteration: s.iteration,
      files: s.files.map((f, j) => {
        const d = diffs[i]?.[j];
        return {
          p: f.path,
          o: f.oldPath,
          s: f.status,
          a: f.insertions,
          d: f.deletions,
          b: d?.binary ?? f.binary,
          t: d?.truncated ?? false,
          u: d?.unavailable === true
        };
      }),
      diffs: s.files.map((_, j) => diffs[i]?.[j]?.diff ?? "")
    }))
  };
  const v = report3.verification;
  const failed = v.checks.filter((c) => !c.ok);
  const verdict = v.ok ? `passed (${v.checks.length} checks)` : `FAILED (${failed.length} of ${v.checks.length} checks)`;
  const csp = [
    "default-src 'none'",
    `script-src ${[assets.diff2htmlJs, CLIENT].map((s) => `'sha256-${createHash5("sha256").update(s, "utf8").digest("base64")}'`).join(" ")}`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'"
  ].join("; ");
  const rows = report3.snapshots.map(
    (s) => `<tr data-iteration="${s.iteration}"><td class="num">${s.iteration}</td><td class="num">${s.filesChanged}</td><td class="num add">+${s.insertions}</td><td class="num del">-${s.deletions}</td><td><code title="${esc2(s.afterSha)}">${esc2(s.afterSha.slice(0, 12))}</code></td><td class="text">${s.task === null ? '<span class="none">-</span>' : esc2(s.task)}</td><td class="text">${s.gate === null ? '<span class="none">-</span>' : esc2(s.gate)}</td></tr>`
  ).join("\n");
  const checks = failed.map(
    (c) => `<li><b>${esc2(c.check)}</b> ${c.snapshotId ? `<code>${esc2(c.snapshotId)}</code> ` : ""}${esc2(c.detail)}</li>`
  ).join("\n");
  const sha = (value) => value ? `<code>${esc2(value)}</code>` : '<span class="none">-</span>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc2(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentgate run ${esc2(report3.run.runId)}</title>
<style>${assets.diff2htmlCss}</style>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>agentgate run <code id="run-id">${esc2(report3.run.runId)}</code></h1>
<dl class="facts">
<dt>Workspace</dt><dd><code>${esc2(report3.run.workspace)}</code></dd>
<dt>Branch</dt><dd>${report3.branch === null ? '<span class="none">-</span>' : `<code>${esc2(report3.branch)}</code>`}</dd>
<dt>Before</dt><dd>${sha(report3.beforeSha)}</dd>
<dt>After</dt><dd>${sha(report3.afterSha)}</dd>
<dt>Verification</dt><dd id="verification" class="${v.ok ? "ok" : "failed"}">${esc2(verdict)}</dd>
<dt>Totals</dt><dd>${report3.totals.iterations} iterations, ${report3.totals.filesChanged} file changes, <span class="add">+${report3.totals.insertions}</span> <span class="del">-${report3.totals.deletions}</span></dd>
<dt>Generated</dt><dd>${esc2(report3.generatedAt)}</dd>
</dl>
${failed.length ? `<section class="failed-checks"><h2>Failed checks</h2><ul>${checks}</ul></section>` : ""}
</header>
<main>
<h2>Iterations</h2>
${report3.snapshots.length ? `<table id="iterations"><thead><tr><th>#</th><th>Files</th><th>+</th><th>-</th><th>After</th><th>Task</th><th>Gate</th></tr></thead><tbody>
${rows}
</tbody></table>` : '<p class="none">No iterations recorded yet.</p>'}
<h2>Changes</h2>
<div class="toolbar" role="radiogroup" aria-label="Diff view">Diff view:
<label><input type="radio" name="view" value="line-by-line" checked> line by line</label>
<label><input type="radio" name="view" value="side-by-side"> side by side</label>
</div>
<div id="changes"></div>
<noscript><p>Turn on JavaScript to list the files and see their diffs; the patches are in the run's artifacts.</p></noscript>
</main>
<script type="application/json" id="agentgate-data">${jsonForScript(data)}</script>
<script>${assets.diff2htmlJs}</script>
<script>${CLIENT}</script>
</body>
</html>
`;
}
function esc2(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
function jsonForScript(value) {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
var EAGER_FILES, FILES_PAGE, STYLE, CLIENT;
var init_html = __esm({
  "src/report/html.ts"() {
    "use strict";
    EAGER_FILES = 200;
    FILES_PAGE = 200;
    STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1400px;padding:16px 24px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:8px 0 12px}h2{font-size:17px;margin:24px 0 8px}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;padding:1px 4px;border-radius:4px;word-break:break-all}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}.facts dt{color:#59636e}.facts dd{margin:0}
.ok{color:#1a7f37;font-weight:600}.failed{color:#d1242f;font-weight:600}.add{color:#1a7f37}.del{color:#d1242f}.none{color:#8c959f}
.failed-checks{border:1px solid #ffcecb;background:#fff6f5;border-radius:6px;padding:4px 16px;margin-top:12px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d1d9e0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}.num{text-align:right;white-space:nowrap}td.text{white-space:pre-wrap;word-break:break-word}
.toolbar{margin:8px 0;display:flex;gap:12px;align-items:center}
details.iteration{border:1px solid #d1d9e0;border-radius:6px;margin:8px 0;padding:0 8px}
details.iteration>summary{cursor:pointer;padding:8px 0;font-weight:600}
details.file{border-top:1px solid #eaeef2}details.file>summary{cursor:pointer;padding:4px 0;font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.status{display:inline-block;min-width:6.5em;color:#59636e}.badge{background:#ddf4ff;color:#0969da;border-radius:8px;padding:0 6px;margin-left:6px;font-size:11px}
.note{color:#59636e;font-style:italic;margin:4px 0}button.more{margin:8px 0}
.diff .d2h-file-wrapper{margin-bottom:8px}
`;
    CLIENT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('agentgate-data').textContent);
  var view = 'line-by-line';
  var changes = document.getElementById('changes');

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function fileEntry(i, j) {
    var f = data.iterations[i].files[j];
    var d = el('details', 'file');
    d.dataset.i = String(i);
    d.dataset.f = String(j);
    var s = el('summary');
    s.appendChild(el('span', 'status', f.s));
    s.appendChild(el('span', 'path', f.o ? f.o + ' \\u2192 ' + f.p : f.p));
    if (f.b) s.appendChild(el('span', 'badge', 'binary'));
    else {
      s.appendChild(document.createTextNode(' '));
      s.appendChild(el('span', 'add', '+' + f.a));
      s.appendChild(document.createTextNode(' '));
      s.appendChild(el('span', 'del', '-' + f.d));
    }
    if (f.t) s.appendChild(el('span', 'badge', 'cut'));
    d.appendChild(s);
    d.appendChild(el('div', 'diff'));
    return d;
  }

  function renderDiff(d) {
    var i = Number(d.dataset.i), j = Number(d.dataset.f);
    var f = data.iterations[i].files[j];
    var box = d.querySelector('.diff');
    d.dataset.view = view;
    if (f.b) { box.replaceChildren(el('p', 'note', 'Binary file: no text diff to show.')); return; }
    if (f.u) { box.replaceChildren(el('p', 'note', 'The patch is not available here: neither its artifact nor its commits could be read when this report was made.')); return; }
    var text = data.iterations[i].diffs[j];
    if (!text) { box.replaceChildren(el('p', 'note', 'No line changes (mode, rename or empty file).')); return; }
    box.innerHTML = Diff2Html.html(text, { drawFileList: false, outputFormat: view, matching: 'none', renderNothingWhenEmpty: false });
    if (f.t) box.insertBefore(el('p', 'note', 'This diff is cut at 1 MiB; the patch artifact holds all of it.'), box.firstChild);
  }

  function fill(box, i, from) {
    var files = data.iterations[i].files;
    var end = Math.min(files.length, from + data.page);
    var frag = document.createDocumentFragment();
    for (var j = from; j < end; j++) frag.appendChild(fileEntry(i, j));
    box.appendChild(frag);
    if (end < files.length) {
      var more = el('button', 'more', 'Show ' + Math.min(data.page, files.length - end) + ' more of ' + (files.length - end) + ' files');
      more.type = 'button';
      more.addEventListener('click', function () { more.remove(); fill(box, i, end); });
      box.appendChild(more);
    }
  }

  data.iterations.forEach(function (it, i) {
    var d = el('details', 'iteration');
    d.dataset.iteration = String(it.iteration);
    d.appendChild(el('summary', '', 'Iteration ' + it.iteration + ' \\u2014 ' + it.files.length + (it.files.length === 1 ? ' file' : ' files')));
    var box = el('div', 'files');
    d.appendChild(box);
    if (it.files.length === 0) box.appendChild(el('p', 'note', 'No change in this iteration.'));
    else if (it.files.length <= data.eager) { fill(box, i, 0); d.open = true; }
    else d.addEventListener('toggle', function once() {
      if (!d.open) return;
      d.removeEventListener('toggle', once);
      fill(box, i, 0);
    });
    changes.appendChild(d);
  });

  changes.addEventListener('toggle', function (e) {
    var d = e.target;
    if (d.classList && d.classList.contains('file') && d.open && d.dataset.view !== view) renderDiff(d);
  }, true);

  document.querySelectorAll('input[name="view"]').forEach(function (input) {
    input.addEventListener('change', function () {
      if (!input.checked) return;
      view = input.value;
      changes.querySelectorAll('details.file[open]').forEach(renderDiff);
    });
  });
})();
`;
  }
});

// src/report/markdown.ts
function renderMarkdown(report3, limit = STEP_SUMMARY_LIMIT) {
  const v = report3.verification;
  const failed = v.checks.filter((c) => !c.ok);
  const head = [
    `## agentgate run \`${code(report3.run.runId)}\``,
    "",
    "| | |",
    "|---|---|",
    `| Workspace | ${cell(report3.run.workspace)} |`,
    `| Branch | ${report3.branch === null ? "-" : cell(report3.branch)} |`,
    `| Before | ${report3.beforeSha ? `\`${report3.beforeSha}\`` : "-"} |`,
    `| After | ${report3.afterSha ? `\`${report3.afterSha}\`` : "-"} |`,
    `| Verification | ${v.ok ? `:white_check_mark: passed (${v.checks.length} checks)` : `:x: **failed** (${failed.length} of ${v.checks.length} checks)`} |`,
    `| Totals | ${report3.totals.iterations} iterations, ${report3.totals.filesChanged} file changes, +${report3.totals.insertions} -${report3.totals.deletions} |`,
    ""
  ];
  const blocks = [];
  const section = (lines) => blocks.push({ lines, row: false });
  const row = (line) => blocks.push({ lines: [line], row: true });
  if (failed.length) {
    section(["### Failed checks", "", "| Check | Snapshot | Detail |", "|---|---|---|"]);
    for (const c of failed)
      row(`| ${cell(c.check)} | ${c.snapshotId ? `\`${code(c.snapshotId)}\`` : "-"} | ${cell(c.detail)} |`);
    section([""]);
  }
  if (report3.snapshots.length) {
    section([
      "### Iterations",
      "",
      "| # | Files | + | - | After | Task | Gate |",
      "|--:|--:|--:|--:|---|---|---|"
    ]);
    for (const s of report3.snapshots) {
      row(
        `| ${s.iteration} | ${s.filesChanged} | +${s.insertions} | -${s.deletions} | \`${s.afterSha.slice(0, 12)}\` | ${s.task === null ? "-" : cell(s.task)} | ${s.gate === null ? "-" : cell(s.gate)} |`
      );
    }
    section([""]);
    for (const s of report3.snapshots) {
      if (s.files.length === 0) continue;
      section([
        `<details><summary>Iteration ${s.iteration}: ${s.filesChanged} files, +${s.insertions} -${s.deletions}</summary>`,
        "",
        "| Status | + | - | Path |",
        "|---|--:|--:|---|"
      ]);
      for (const f of s.files) {
        const path = f.oldPath ? `${cell(f.oldPath)} &rarr; ${cell(f.path)}` : cell(f.path);
        row(
          `| ${f.status} | ${f.binary ? "bin" : `+${f.insertions}`} | ${f.binary ? "bin" : `-${f.deletions}`} | ${path} |`
        );
      }
      section(["", "</details>", ""]);
    }
  } else section(["No iterations recorded yet.", ""]);
  const bytes = (lines) => lines.reduce((n, l) => n + Buffer.byteLength(l, "utf8") + 1, 0);
  const out = [...head];
  let used = bytes(out);
  const reserve = 1024;
  let cutAt = -1;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    const size = bytes(block.lines);
    if (used + size + reserve > limit) {
      cutAt = i;
      break;
    }
    out.push(...block.lines);
    used += size;
  }
  if (cutAt !== -1) {
    const omitted = blocks.slice(cutAt).filter((b) => b.row).length;
    const opened = out.filter((l) => l.startsWith("<details>")).length - out.filter((l) => l === "</details>").length;
    out.push("", ...opened > 0 ? ["</details>", ""] : []);
    out.push(
      `> [!NOTE]`,
      `> This summary was cut to stay within GitHub's 1 MiB step summary limit: ${omitted} more rows are not shown. The HTML or JSON report (\`report --format html\`) has everything.`,
      ""
    );
  }
  return out.join("\n");
}
function cell(text) {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/([\\`*_{}[\]()#+!|~:@])/g, "\\$1").trim() || "-";
}
function code(text) {
  return text.replace(/[`\r\n]/g, "");
}
var STEP_SUMMARY_LIMIT;
var init_markdown = __esm({
  "src/report/markdown.ts"() {
    "use strict";
    STEP_SUMMARY_LIMIT = 1024 * 1024;
  }
});

// src/report/model.ts
async function buildRunReport(snapshotter, runId, now = /* @__PURE__ */ new Date()) {
  const run = await pickRun(snapshotter, runId);
  const snapshots = (await snapshotter.listByRun(run.runId)).map(withTaskAndGate);
  const verification = snapshots.length === 0 ? {
    ok: false,
    checks: [
      {
        snapshotId: null,
        runId: run.runId,
        check: "iterations",
        ok: false,
        detail: "the run has no iterations yet: nothing was captured to verify"
      }
    ]
  } : await snapshotter.verify({ runId: run.runId });
  const first = snapshots[0];
  const last = snapshots.at(-1);
  return {
    kind: "agentgate-run-report",
    version: 1,
    generatedAt: now.toISOString(),
    run,
    beforeSha: first?.beforeSha ?? run.before?.sha ?? null,
    afterSha: last?.afterSha ?? null,
    branch: last?.branch ?? run.before?.branch ?? null,
    totals: {
      iterations: snapshots.length,
      filesChanged: sum(snapshots, (s) => s.filesChanged),
      insertions: sum(snapshots, (s) => s.insertions),
      deletions: sum(snapshots, (s) => s.deletions)
    },
    snapshots,
    verification
  };
}
async function pickRun(snapshotter, runId) {
  if (runId !== void 0) {
    const run = await snapshotter.store.loadRun(assertSafeId(runId, "run id"));
    if (!run)
      throw new RunNotFoundError(`no run ${JSON.stringify(runId)}; "runs" lists the recorded ones`, {
        details: { runId }
      });
    return snapshotter.withLocalWorkspace(run);
  }
  const { runs: runs2 } = await snapshotter.store.listRuns();
  const latest = [...runs2].sort(
    (a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt)
  )[0];
  if (!latest)
    throw new RunNotFoundError(
      'no run recorded in this home yet; call "before" and "after" first, or pass --home'
    );
  return snapshotter.withLocalWorkspace(latest);
}
function withTaskAndGate(snapshot) {
  const task = snapshot.task !== void 0 ? snapshot.task : messageLine(snapshot.commitMessage, "Task");
  const gate = snapshot.gate !== void 0 ? snapshot.gate : messageLine(snapshot.commitMessage, "Gate");
  return { ...snapshot, task, gate };
}
function messageLine(message, key) {
  const line = message.split("\n").find((l) => l.startsWith(`${key}: `) || l === `${key}:`);
  const value = line?.slice(key.length + 1).trim();
  return value ? value : null;
}
function sum(items, of) {
  return items.reduce((total, item) => total + of(item), 0);
}
var init_model = __esm({
  "src/report/model.ts"() {
    "use strict";
    init_errors();
    init_paths();
  }
});

// src/report/patches.ts
function splitPatch(patch3) {
  if (patch3.length === 0) return [];
  const starts = [];
  if (patch3.startsWith("diff --git ")) starts.push(0);
  for (let at = patch3.indexOf("\ndiff --git "); at !== -1; at = patch3.indexOf("\ndiff --git ", at + 1))
    starts.push(at + 1);
  return starts.map((start, i) => patch3.slice(start, starts[i + 1] ?? patch3.length));
}
function fileDiffs(files, patch3, maxBytes = MAX_FILE_DIFF_BYTES) {
  const sections = splitPatch(patch3);
  const byOrder = sections.length === files.length;
  return files.map((file, i) => {
    const section = byOrder ? sections[i] ?? "" : sections.find((s) => headerNames(s, file)) ?? "";
    const binary = file.binary || /^(GIT binary patch|Binary files )/m.test(section);
    if (binary) return { diff: "", binary: true, truncated: false };
    return cut(section, maxBytes);
  });
}
function headerNames(section, file) {
  const header = section.slice(0, section.indexOf("\n") === -1 ? section.length : section.indexOf("\n"));
  return header === `diff --git a/${file.oldPath ?? file.path} b/${file.path}`;
}
function cut(section, maxBytes) {
  if (Buffer.byteLength(section, "utf8") <= maxBytes)
    return { diff: section, binary: false, truncated: false };
  const prefix = Buffer.from(section, "utf8").subarray(0, maxBytes).toString("utf8");
  const end = prefix.lastIndexOf("\n");
  return { diff: end === -1 ? "" : prefix.slice(0, end + 1), binary: false, truncated: true };
}
var MAX_FILE_DIFF_BYTES;
var init_patches = __esm({
  "src/report/patches.ts"() {
    "use strict";
    MAX_FILE_DIFF_BYTES = 1024 * 1024;
  }
});

// src/report/index.ts
import { resolve as resolve8 } from "node:path";
async function renderReport(snapshotter, format, runId) {
  const report3 = await buildRunReport(snapshotter, runId);
  switch (format) {
    case "json":
      return { report: report3, text: `${JSON.stringify(RunReport.parse(report3), null, 2)}
` };
    case "md":
      return { report: report3, text: renderMarkdown(report3) };
    case "dotenv":
      return { report: report3, text: renderDotenv(report3) };
    case "html": {
      const diffs = [];
      for (const s of report3.snapshots) {
        const patch3 = await snapshotter.generatePatch(s).catch((error2) => {
          if (isAgentgateError(error2)) return null;
          throw error2;
        });
        diffs.push(
          patch3 === null ? s.files.map(() => ({ diff: "", binary: false, truncated: false, unavailable: true })) : fileDiffs(s.files, patch3)
        );
      }
      return { report: report3, text: renderHtml({ report: report3, diffs, assets: await loadAssets() }) };
    }
  }
}
async function writeReport(snapshotter, format, file, runId) {
  const { report: report3, text } = await renderReport(snapshotter, format, runId);
  const path = resolve8(file);
  await writeFileAtomic(path, text);
  return { file: path, format, runId: report3.run.runId, bytes: Buffer.byteLength(text, "utf8") };
}
var init_report2 = __esm({
  "src/report/index.ts"() {
    "use strict";
    init_report();
    init_errors();
    init_atomic();
    init_assets();
    init_dotenv();
    init_html();
    init_markdown();
    init_model();
    init_patches();
    init_model();
    init_markdown();
    init_dotenv();
  }
});

// src/cli/commands/report.ts
var report_exports = {};
__export(report_exports, {
  REPORT_COMMAND: () => REPORT_COMMAND
});
var REPORT_COMMAND;
var init_report3 = __esm({
  "src/cli/commands/report.ts"() {
    "use strict";
    init_report();
    init_github();
    init_report2();
    init_spec();
    REPORT_COMMAND = defineCommand({
      name: "report",
      usage: "report [--run ID] [--format html|md|json|dotenv] [-o FILE] [--ci github|none]",
      summary: "A report of one run (default: the most recent): a self-contained HTML page, a Markdown step summary, one JSON document or GitLab dotenv variables. Writes FILE with -o, else prints it; in GitHub Actions, md without -o is appended to $GITHUB_STEP_SUMMARY.",
      options: {
        run: {
          type: "string",
          valueName: "ID",
          description: "the run to report",
          defaultText: "the run updated most recently"
        },
        format: {
          type: "string",
          choices: ReportFormat.options,
          valueName: "FORMAT",
          description: "html (one self-contained page), md (GitHub-flavoured Markdown, at most 1 MiB), json (one document) or dotenv (GitLab AGENTGATE_* variables)",
          default: "html"
        },
        output: {
          type: "string",
          short: "o",
          valueName: "FILE",
          description: "write the report to FILE instead of printing it"
        },
        ci: {
          ...CI_OPTION,
          description: "GitHub Actions integration: with github, md without -o is appended to $GITHUB_STEP_SUMMARY"
        }
      },
      positionals: { required: [] },
      examples: ['report --run "$RUN" --format html -o report.html', "report --format md --ci github"],
      async run(ctx, values) {
        const format = values.format;
        const runId = values.run;
        const output = values.output;
        const summaryFile = output === void 0 && format === "md" ? githubFileFor(values.ci, "GITHUB_STEP_SUMMARY") : null;
        if (output !== void 0) {
          const written = await writeReport(ctx.snapshotter, format, output, runId);
          return {
            json: written,
            human: () => `Wrote ${written.file} (${format}, run ${written.runId}, ${written.bytes} bytes)`
          };
        }
        const { report: report3, text } = await renderReport(ctx.snapshotter, format, runId);
        if (summaryFile !== null) {
          await appendStepSummary(summaryFile, text);
          return {
            json: { summary: summaryFile, format, runId: report3.run.runId },
            human: () => `Appended the run ${report3.run.runId} summary to $GITHUB_STEP_SUMMARY.`
          };
        }
        return {
          json: format === "json" ? report3 : { format, runId: report3.run.runId, text },
          human: () => text.replace(/\n$/, "")
        };
      }
    });
  }
});

// types/serve.ts
var SERVE_MAX_LINE_BYTES, ServeRequestId, ServeRequest, ServeError, ServeResponse;
var init_serve = __esm({
  "types/serve.ts"() {
    "use strict";
    init_zod();
    SERVE_MAX_LINE_BYTES = 1024 * 1024;
    ServeRequestId = union([
      string2().max(200),
      number2().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER)
    ]);
    ServeRequest = object({
      id: ServeRequestId,
      command: string2().min(1).max(100),
      args: array(string2().max(SERVE_MAX_LINE_BYTES)).max(1e4).default([]),
      options: record(
        string2().regex(/^[a-z][a-z0-9-]{0,63}$/),
        union([string2(), boolean2(), number2().int().min(0).max(Number.MAX_SAFE_INTEGER)])
      ).default({})
    }).strict();
    ServeError = object({ code: string2(), message: string2() });
    ServeResponse = union([
      object({ id: ServeRequestId, result: unknown(), exitCode: number2().int().optional() }).strict(),
      object({ id: ServeRequestId.nullable(), error: ServeError }).strict()
    ]);
  }
});

// node_modules/yaml/dist/nodes/identity.js
var require_identity = __commonJS({
  "node_modules/yaml/dist/nodes/identity.js"(exports) {
    "use strict";
    var ALIAS = /* @__PURE__ */ Symbol.for("yaml.alias");
    var DOC = /* @__PURE__ */ Symbol.for("yaml.document");
    var MAP = /* @__PURE__ */ Symbol.for("yaml.map");
    var PAIR = /* @__PURE__ */ Symbol.for("yaml.pair");
    var SCALAR = /* @__PURE__ */ Symbol.for("yaml.scalar");
    var SEQ = /* @__PURE__ */ Symbol.for("yaml.seq");
    var NODE_TYPE = /* @__PURE__ */ Symbol.for("yaml.node.type");
    var isAlias = (node2) => !!node2 && typeof node2 === "object" && node2[NODE_TYPE] === ALIAS;
    var isDocument = (node2) => !!node2 && typeof node2 === "object" && node2[NODE_TYPE] === DOC;
    var isMap = (node2) => !!node2 && typeof node2 === "object" && node2[NODE_TYPE] === MAP;
    var isPair = (node2) => !!node2 && typeof node2 === "object" && node2[NODE_TYPE] === PAIR;
    var isScalar = (node2) => !!node2 && typeof node2 === "object" && node2[NODE_TYPE] === SCALAR;
    var isSeq = (node2) => !!node2 && typeof node2 === "object" && node2[NODE_TYPE] === SEQ;
    function isCollection(node2) {
      if (node2 && typeof node2 === "object")
        switch (node2[NODE_TYPE]) {
          case MAP:
          case SEQ:
            return true;
        }
      return false;
    }
    function isNode(node2) {
      if (node2 && typeof node2 === "object")
        switch (node2[NODE_TYPE]) {
          case ALIAS:
          case MAP:
          case SCALAR:
          case SEQ:
            return true;
        }
      return false;
    }
    var hasAnchor = (node2) => (isScalar(node2) || isCollection(node2)) && !!node2.anchor;
    exports.ALIAS = ALIAS;
    exports.DOC = DOC;
    exports.MAP = MAP;
    exports.NODE_TYPE = NODE_TYPE;
    exports.PAIR = PAIR;
    exports.SCALAR = SCALAR;
    exports.SEQ = SEQ;
    exports.hasAnchor = hasAnchor;
    exports.isAlias = isAlias;
    exports.isCollection = isCollection;
    exports.isDocument = isDocument;
    exports.isMap = isMap;
    exports.isNode = isNode;
    exports.isPair = isPair;
    exports.isScalar = isScalar;
    exports.isSeq = isSeq;
  }
});

// node_modules/yaml/dist/visit.js
var require_visit = __commonJS({
  "node_modules/yaml/dist/visit.js"(exports) {
    "use strict";
    var identity = require_identity();
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove node");
    function visit(node2, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node2)) {
        const cd = visit_(null, node2.contents, visitor_, Object.freeze([node2]));
        if (cd === REMOVE)
          node2.contents = null;
      } else
        visit_(null, node2, visitor_, Object.freeze([]));
    }
    visit.BREAK = BREAK;
    visit.SKIP = SKIP;
    visit.REMOVE = REMOVE;
    function visit_(key, node2, visitor, path) {
      const ctrl = callVisitor(key, node2, visitor, path);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visit_(key, ctrl, visitor, path);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node2)) {
          path = Object.freeze(path.concat(node2));
          for (let i = 0; i < node2.items.length; ++i) {
            const ci = visit_(i, node2.items[i], visitor, path);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node2.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node2)) {
          path = Object.freeze(path.concat(node2));
          const ck = visit_("key", node2.key, visitor, path);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node2.key = null;
          const cv = visit_("value", node2.value, visitor, path);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node2.value = null;
        }
      }
      return ctrl;
    }
    async function visitAsync(node2, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node2)) {
        const cd = await visitAsync_(null, node2.contents, visitor_, Object.freeze([node2]));
        if (cd === REMOVE)
          node2.contents = null;
      } else
        await visitAsync_(null, node2, visitor_, Object.freeze([]));
    }
    visitAsync.BREAK = BREAK;
    visitAsync.SKIP = SKIP;
    visitAsync.REMOVE = REMOVE;
    async function visitAsync_(key, node2, visitor, path) {
      const ctrl = await callVisitor(key, node2, visitor, path);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visitAsync_(key, ctrl, visitor, path);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node2)) {
          path = Object.freeze(path.concat(node2));
          for (let i = 0; i < node2.items.length; ++i) {
            const ci = await visitAsync_(i, node2.items[i], visitor, path);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node2.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node2)) {
          path = Object.freeze(path.concat(node2));
          const ck = await visitAsync_("key", node2.key, visitor, path);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node2.key = null;
          const cv = await visitAsync_("value", node2.value, visitor, path);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node2.value = null;
        }
      }
      return ctrl;
    }
    function initVisitor(visitor) {
      if (typeof visitor === "object" && (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
          Alias: visitor.Node,
          Map: visitor.Node,
          Scalar: visitor.Node,
          Seq: visitor.Node
        }, visitor.Value && {
          Map: visitor.Value,
          Scalar: visitor.Value,
          Seq: visitor.Value
        }, visitor.Collection && {
          Map: visitor.Collection,
          Seq: visitor.Collection
        }, visitor);
      }
      return visitor;
    }
    function callVisitor(key, node2, visitor, path) {
      if (typeof visitor === "function")
        return visitor(key, node2, path);
      if (identity.isMap(node2))
        return visitor.Map?.(key, node2, path);
      if (identity.isSeq(node2))
        return visitor.Seq?.(key, node2, path);
      if (identity.isPair(node2))
        return visitor.Pair?.(key, node2, path);
      if (identity.isScalar(node2))
        return visitor.Scalar?.(key, node2, path);
      if (identity.isAlias(node2))
        return visitor.Alias?.(key, node2, path);
      return void 0;
    }
    function replaceNode(key, path, node2) {
      const parent = path[path.length - 1];
      if (identity.isCollection(parent)) {
        parent.items[key] = node2;
      } else if (identity.isPair(parent)) {
        if (key === "key")
          parent.key = node2;
        else
          parent.value = node2;
      } else if (identity.isDocument(parent)) {
        parent.contents = node2;
      } else {
        const pt = identity.isAlias(parent) ? "alias" : "scalar";
        throw new Error(`Cannot replace node with ${pt} parent`);
      }
    }
    exports.visit = visit;
    exports.visitAsync = visitAsync;
  }
});

// node_modules/yaml/dist/doc/directives.js
var require_directives = __commonJS({
  "node_modules/yaml/dist/doc/directives.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit = require_visit();
    var escapeChars = {
      "!": "%21",
      ",": "%2C",
      "[": "%5B",
      "]": "%5D",
      "{": "%7B",
      "}": "%7D"
    };
    var escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, (ch) => escapeChars[ch]);
    var Directives = class _Directives {
      constructor(yaml, tags) {
        this.docStart = null;
        this.docEnd = false;
        this.yaml = Object.assign({}, _Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, _Directives.defaultTags, tags);
      }
      clone() {
        const copy = new _Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
      }
      /**
       * During parsing, get a Directives instance for the current document and
       * update the stream state according to the current version's spec.
       */
      atDocument() {
        const res = new _Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
          case "1.1":
            this.atNextDocument = true;
            break;
          case "1.2":
            this.atNextDocument = false;
            this.yaml = {
              explicit: _Directives.defaultYaml.explicit,
              version: "1.2"
            };
            this.tags = Object.assign({}, _Directives.defaultTags);
            break;
        }
        return res;
      }
      /**
       * @param onError - May be called even if the action was successful
       * @returns `true` on success
       */
      add(line, onError) {
        if (this.atNextDocument) {
          this.yaml = { explicit: _Directives.defaultYaml.explicit, version: "1.1" };
          this.tags = Object.assign({}, _Directives.defaultTags);
          this.atNextDocument = false;
        }
        const parts = line.trim().split(/[ \t]+/);
        const name = parts.shift();
        switch (name) {
          case "%TAG": {
            if (parts.length !== 2) {
              onError(0, "%TAG directive should contain exactly two parts");
              if (parts.length < 2)
                return false;
            }
            const [handle, prefix] = parts;
            this.tags[handle] = prefix;
            return true;
          }
          case "%YAML": {
            this.yaml.explicit = true;
            if (parts.length !== 1) {
              onError(0, "%YAML directive should contain exactly one part");
              return false;
            }
            const [version2] = parts;
            if (version2 === "1.1" || version2 === "1.2") {
              this.yaml.version = version2;
              return true;
            } else {
              const isValid = /^\d+\.\d+$/.test(version2);
              onError(6, `Unsupported YAML version ${version2}`, isValid);
              return false;
            }
          }
          default:
            onError(0, `Unknown directive ${name}`, true);
            return false;
        }
      }
      /**
       * Resolves a tag, matching handles to those defined in %TAG directives.
       *
       * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
       *   `'!local'` tag, or `null` if unresolvable.
       */
      tagName(source, onError) {
        if (source === "!")
          return "!";
        if (source[0] !== "!") {
          onError(`Not a valid tag: ${source}`);
          return null;
        }
        if (source[1] === "<") {
          const verbatim = source.slice(2, -1);
          if (verbatim === "!" || verbatim === "!!") {
            onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
            return null;
          }
          if (source[source.length - 1] !== ">")
            onError("Verbatim tags must end with a >");
          return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
          onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
          try {
            return prefix + decodeURIComponent(suffix);
          } catch (error2) {
            onError(String(error2));
            return null;
          }
        }
        if (handle === "!")
          return source;
        onError(`Could not resolve tag: ${source}`);
        return null;
      }
      /**
       * Given a fully resolved tag, returns its printable string form,
       * taking into account current tag prefixes and defaults.
       */
      tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
          if (tag.startsWith(prefix))
            return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === "!" ? tag : `!<${tag}>`;
      }
      toString(doc) {
        const lines = this.yaml.explicit ? [`%YAML ${this.yaml.version || "1.2"}`] : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
          const tags = {};
          visit.visit(doc.contents, (_key, node2) => {
            if (identity.isNode(node2) && node2.tag)
              tags[node2.tag] = true;
          });
          tagNames = Object.keys(tags);
        } else
          tagNames = [];
        for (const [handle, prefix] of tagEntries) {
          if (handle === "!!" && prefix === "tag:yaml.org,2002:")
            continue;
          if (!doc || tagNames.some((tn) => tn.startsWith(prefix)))
            lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join("\n");
      }
    };
    Directives.defaultYaml = { explicit: false, version: "1.2" };
    Directives.defaultTags = { "!!": "tag:yaml.org,2002:" };
    exports.Directives = Directives;
  }
});

// node_modules/yaml/dist/doc/anchors.js
var require_anchors = __commonJS({
  "node_modules/yaml/dist/doc/anchors.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit = require_visit();
    function anchorIsValid(anchor2) {
      if (/[\x00-\x19\s,[\]{}]/.test(anchor2)) {
        const sa = JSON.stringify(anchor2);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
      }
      return true;
    }
    function anchorNames(root) {
      const anchors = /* @__PURE__ */ new Set();
      visit.visit(root, {
        Value(_key, node2) {
          if (node2.anchor)
            anchors.add(node2.anchor);
        }
      });
      return anchors;
    }
    function findNewAnchor(prefix, exclude) {
      for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
          return name;
      }
    }
    function createNodeAnchors(doc, prefix) {
      const aliasObjects = [];
      const sourceObjects = /* @__PURE__ */ new Map();
      let prevAnchors = null;
      return {
        onAnchor: (source) => {
          aliasObjects.push(source);
          prevAnchors ?? (prevAnchors = anchorNames(doc));
          const anchor2 = findNewAnchor(prefix, prevAnchors);
          prevAnchors.add(anchor2);
          return anchor2;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
          for (const source of aliasObjects) {
            const ref = sourceObjects.get(source);
            if (typeof ref === "object" && ref.anchor && (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
              ref.node.anchor = ref.anchor;
            } else {
              const error2 = new Error("Failed to resolve repeated object (this should not happen)");
              error2.source = source;
              throw error2;
            }
          }
        },
        sourceObjects
      };
    }
    exports.anchorIsValid = anchorIsValid;
    exports.anchorNames = anchorNames;
    exports.createNodeAnchors = createNodeAnchors;
    exports.findNewAnchor = findNewAnchor;
  }
});

// node_modules/yaml/dist/doc/applyReviver.js
var require_applyReviver = __commonJS({
  "node_modules/yaml/dist/doc/applyReviver.js"(exports) {
    "use strict";
    function applyReviver(reviver, obj, key, val) {
      if (val && typeof val === "object") {
        if (Array.isArray(val)) {
          for (let i = 0, len = val.length; i < len; ++i) {
            const v0 = val[i];
            const v1 = applyReviver(reviver, val, String(i), v0);
            if (v1 === void 0)
              delete val[i];
            else if (v1 !== v0)
              val[i] = v1;
          }
        } else if (val instanceof Map) {
          for (const k of Array.from(val.keys())) {
            const v0 = val.get(k);
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              val.delete(k);
            else if (v1 !== v0)
              val.set(k, v1);
          }
        } else if (val instanceof Set) {
          for (const v0 of Array.from(val)) {
            const v1 = applyReviver(reviver, val, v0, v0);
            if (v1 === void 0)
              val.delete(v0);
            else if (v1 !== v0) {
              val.delete(v0);
              val.add(v1);
            }
          }
        } else {
          for (const [k, v0] of Object.entries(val)) {
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              delete val[k];
            else if (v1 !== v0)
              val[k] = v1;
          }
        }
      }
      return reviver.call(obj, key, val);
    }
    exports.applyReviver = applyReviver;
  }
});

// node_modules/yaml/dist/nodes/toJS.js
var require_toJS = __commonJS({
  "node_modules/yaml/dist/nodes/toJS.js"(exports) {
    "use strict";
    var identity = require_identity();
    function toJS(value, arg, ctx) {
      if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
      if (value && typeof value.toJSON === "function") {
        if (!ctx || !identity.hasAnchor(value))
          return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: void 0 };
        ctx.anchors.set(value, data);
        ctx.onCreate = (res2) => {
          data.res = res2;
          delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
          ctx.onCreate(res);
        return res;
      }
      if (typeof value === "bigint" && !ctx?.keep)
        return Number(value);
      return value;
    }
    exports.toJS = toJS;
  }
});

// node_modules/yaml/dist/nodes/Node.js
var require_Node = __commonJS({
  "node_modules/yaml/dist/nodes/Node.js"(exports) {
    "use strict";
    var applyReviver = require_applyReviver();
    var identity = require_identity();
    var toJS = require_toJS();
    var NodeBase = class {
      constructor(type) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
      }
      /** Create a copy of this node.  */
      clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** A plain JavaScript representation of this node. */
      toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!identity.isDocument(doc))
          throw new TypeError("A document argument is required");
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc,
          keep: true,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this, "", ctx);
        if (typeof onAnchor === "function")
          for (const { count, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
    };
    exports.NodeBase = NodeBase;
  }
});

// node_modules/yaml/dist/nodes/Alias.js
var require_Alias = __commonJS({
  "node_modules/yaml/dist/nodes/Alias.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var visit = require_visit();
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var Alias = class extends Node.NodeBase {
      constructor(source) {
        super(identity.ALIAS);
        this.source = source;
        Object.defineProperty(this, "tag", {
          set() {
            throw new Error("Alias nodes cannot have tags");
          }
        });
      }
      /**
       * Resolve the value of this alias within `doc`, finding the last
       * instance of the `source` anchor before this node.
       */
      resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
          throw new ReferenceError("Alias resolution is disabled");
        let nodes;
        if (ctx?.aliasResolveCache) {
          nodes = ctx.aliasResolveCache;
        } else {
          nodes = [];
          visit.visit(doc, {
            Node: (_key, node2) => {
              if (identity.isAlias(node2) || identity.hasAnchor(node2))
                nodes.push(node2);
            }
          });
          if (ctx)
            ctx.aliasResolveCache = nodes;
        }
        let found = void 0;
        for (const node2 of nodes) {
          if (node2 === this)
            break;
          if (node2.anchor === this.source)
            found = node2;
        }
        if (found && ctx) {
          const { anchors: anchors2, doc: doc2, maxAliasCount } = ctx;
          let data = anchors2.get(found);
          if (!data) {
            toJS.toJS(found, null, ctx);
            data = anchors2.get(found);
          }
          if (data?.res === void 0) {
            const msg = "This should not happen: Alias anchor was not resolved?";
            throw new ReferenceError(msg);
          }
          if (maxAliasCount >= 0) {
            data.count += 1;
            if (data.aliasCount === 0)
              data.aliasCount = getAliasCount(doc2, found, anchors2);
            if (data.count * data.aliasCount > maxAliasCount) {
              const msg = "Excessive alias count indicates a resource exhaustion attack";
              throw new ReferenceError(msg);
            }
          }
        }
        return found;
      }
      toJSON(_arg, ctx) {
        if (!ctx)
          return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
          const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
          throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
      }
      toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
          anchors.anchorIsValid(this.source);
          if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new Error(msg);
          }
          if (ctx.implicitKey)
            return `${src} `;
        }
        return src;
      }
    };
    function getAliasCount(doc, node2, anchors2) {
      if (identity.isAlias(node2)) {
        const source = node2.resolve(doc);
        const anchor2 = anchors2 && source && anchors2.get(source);
        return anchor2 ? anchor2.count * anchor2.aliasCount : 0;
      } else if (identity.isCollection(node2)) {
        let count = 0;
        for (const item of node2.items) {
          const c = getAliasCount(doc, item, anchors2);
          if (c > count)
            count = c;
        }
        return count;
      } else if (identity.isPair(node2)) {
        const kc = getAliasCount(doc, node2.key, anchors2);
        const vc = getAliasCount(doc, node2.value, anchors2);
        return Math.max(kc, vc);
      }
      return 1;
    }
    exports.Alias = Alias;
  }
});

// node_modules/yaml/dist/nodes/Scalar.js
var require_Scalar = __commonJS({
  "node_modules/yaml/dist/nodes/Scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var isScalarValue = (value) => !value || typeof value !== "function" && typeof value !== "object";
    var Scalar = class extends Node.NodeBase {
      constructor(value) {
        super(identity.SCALAR);
        this.value = value;
      }
      toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
      }
      toString() {
        return String(this.value);
      }
    };
    Scalar.BLOCK_FOLDED = "BLOCK_FOLDED";
    Scalar.BLOCK_LITERAL = "BLOCK_LITERAL";
    Scalar.PLAIN = "PLAIN";
    Scalar.QUOTE_DOUBLE = "QUOTE_DOUBLE";
    Scalar.QUOTE_SINGLE = "QUOTE_SINGLE";
    exports.Scalar = Scalar;
    exports.isScalarValue = isScalarValue;
  }
});

// node_modules/yaml/dist/doc/createNode.js
var require_createNode = __commonJS({
  "node_modules/yaml/dist/doc/createNode.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var defaultTagPrefix = "tag:yaml.org,2002:";
    function findTagObject(value, tagName, tags) {
      if (tagName) {
        const match = tags.filter((t) => t.tag === tagName);
        const tagObj = match.find((t) => !t.format) ?? match[0];
        if (!tagObj)
          throw new Error(`Tag ${tagName} not found`);
        return tagObj;
      }
      return tags.find((t) => t.identify?.(value) && !t.format);
    }
    function createNode(value, tagName, ctx) {
      if (identity.isDocument(value))
        value = value.contents;
      if (identity.isNode(value))
        return value;
      if (identity.isPair(value)) {
        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
      }
      if (value instanceof String || value instanceof Number || value instanceof Boolean || typeof BigInt !== "undefined" && value instanceof BigInt) {
        value = value.valueOf();
      }
      const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
      let ref = void 0;
      if (aliasDuplicateObjects && value && typeof value === "object") {
        ref = sourceObjects.get(value);
        if (ref) {
          ref.anchor ?? (ref.anchor = onAnchor(value));
          return new Alias.Alias(ref.anchor);
        } else {
          ref = { anchor: null, node: null };
          sourceObjects.set(value, ref);
        }
      }
      if (tagName?.startsWith("!!"))
        tagName = defaultTagPrefix + tagName.slice(2);
      let tagObj = findTagObject(value, tagName, schema.tags);
      if (!tagObj) {
        if (value && typeof value.toJSON === "function") {
          value = value.toJSON();
        }
        if (!value || typeof value !== "object") {
          const node3 = new Scalar.Scalar(value);
          if (ref)
            ref.node = node3;
          return node3;
        }
        tagObj = value instanceof Map ? schema[identity.MAP] : Symbol.iterator in Object(value) ? schema[identity.SEQ] : schema[identity.MAP];
      }
      if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
      }
      const node2 = tagObj?.createNode ? tagObj.createNode(ctx.schema, value, ctx) : typeof tagObj?.nodeClass?.from === "function" ? tagObj.nodeClass.from(ctx.schema, value, ctx) : new Scalar.Scalar(value);
      if (tagName)
        node2.tag = tagName;
      else if (!tagObj.default)
        node2.tag = tagObj.tag;
      if (ref)
        ref.node = node2;
      return node2;
    }
    exports.createNode = createNode;
  }
});

// node_modules/yaml/dist/nodes/Collection.js
var require_Collection = __commonJS({
  "node_modules/yaml/dist/nodes/Collection.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var identity = require_identity();
    var Node = require_Node();
    function collectionFromPath(schema, path, value) {
      let v = value;
      for (let i = path.length - 1; i >= 0; --i) {
        const k = path[i];
        if (typeof k === "number" && Number.isInteger(k) && k >= 0) {
          const a = [];
          a[k] = v;
          v = a;
        } else {
          v = /* @__PURE__ */ new Map([[k, v]]);
        }
      }
      return createNode.createNode(v, void 0, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
          throw new Error("This should not happen, please report a bug.");
        },
        schema,
        sourceObjects: /* @__PURE__ */ new Map()
      });
    }
    var isEmptyPath = (path) => path == null || typeof path === "object" && !!path[Symbol.iterator]().next().done;
    var Collection = class extends Node.NodeBase {
      constructor(type, schema) {
        super(type);
        Object.defineProperty(this, "schema", {
          value: schema,
          configurable: true,
          enumerable: false,
          writable: true
        });
      }
      /**
       * Create a copy of this collection.
       *
       * @param schema - If defined, overwrites the original's schema
       */
      clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
          copy.schema = schema;
        copy.items = copy.items.map((it) => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /**
       * Adds a value to the collection. For `!!map` and `!!omap` the value must
       * be a Pair instance or a `{ key, value }` object, which may not have a key
       * that already exists in the map.
       */
      addIn(path, value) {
        if (isEmptyPath(path))
          this.add(value);
        else {
          const [key, ...rest] = path;
          const node2 = this.get(key, true);
          if (identity.isCollection(node2))
            node2.addIn(rest, value);
          else if (node2 === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
      /**
       * Removes a value from the collection.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
          return this.delete(key);
        const node2 = this.get(key, true);
        if (identity.isCollection(node2))
          return node2.deleteIn(rest);
        else
          throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path, keepScalar) {
        const [key, ...rest] = path;
        const node2 = this.get(key, true);
        if (rest.length === 0)
          return !keepScalar && identity.isScalar(node2) ? node2.value : node2;
        else
          return identity.isCollection(node2) ? node2.getIn(rest, keepScalar) : void 0;
      }
      hasAllNullValues(allowScalar) {
        return this.items.every((node2) => {
          if (!identity.isPair(node2))
            return false;
          const n = node2.value;
          return n == null || allowScalar && identity.isScalar(n) && n.value == null && !n.commentBefore && !n.comment && !n.tag;
        });
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       */
      hasIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
          return this.has(key);
        const node2 = this.get(key, true);
        return identity.isCollection(node2) ? node2.hasIn(rest) : false;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path, value) {
        const [key, ...rest] = path;
        if (rest.length === 0) {
          this.set(key, value);
        } else {
          const node2 = this.get(key, true);
          if (identity.isCollection(node2))
            node2.setIn(rest, value);
          else if (node2 === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
    };
    exports.Collection = Collection;
    exports.collectionFromPath = collectionFromPath;
    exports.isEmptyPath = isEmptyPath;
  }
});

// node_modules/yaml/dist/stringify/stringifyComment.js
var require_stringifyComment = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyComment.js"(exports) {
    "use strict";
    var stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, "#");
    function indentComment(comment, indent) {
      if (/^\n+$/.test(comment))
        return comment.substring(1);
      return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
    }
    var lineComment = (str, indent, comment) => str.endsWith("\n") ? indentComment(comment, indent) : comment.includes("\n") ? "\n" + indentComment(comment, indent) : (str.endsWith(" ") ? "" : " ") + comment;
    exports.indentComment = indentComment;
    exports.lineComment = lineComment;
    exports.stringifyComment = stringifyComment;
  }
});

// node_modules/yaml/dist/stringify/foldFlowLines.js
var require_foldFlowLines = __commonJS({
  "node_modules/yaml/dist/stringify/foldFlowLines.js"(exports) {
    "use strict";
    var FOLD_FLOW = "flow";
    var FOLD_BLOCK = "block";
    var FOLD_QUOTED = "quoted";
    function foldFlowLines(text, indent, mode = "flow", { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
      if (!lineWidth || lineWidth < 0)
        return text;
      if (lineWidth < minContentWidth)
        minContentWidth = 0;
      const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
      if (text.length <= endStep)
        return text;
      const folds = [];
      const escapedFolds = {};
      let end = lineWidth - indent.length;
      if (typeof indentAtStart === "number") {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
          folds.push(0);
        else
          end = lineWidth - indentAtStart;
      }
      let split = void 0;
      let prev = void 0;
      let overflow = false;
      let i = -1;
      let escStart = -1;
      let escEnd = -1;
      if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
          end = i + endStep;
      }
      for (let ch; ch = text[i += 1]; ) {
        if (mode === FOLD_QUOTED && ch === "\\") {
          escStart = i;
          switch (text[i + 1]) {
            case "x":
              i += 3;
              break;
            case "u":
              i += 5;
              break;
            case "U":
              i += 9;
              break;
            default:
              i += 1;
          }
          escEnd = i;
        }
        if (ch === "\n") {
          if (mode === FOLD_BLOCK)
            i = consumeMoreIndentedLines(text, i, indent.length);
          end = i + indent.length + endStep;
          split = void 0;
        } else {
          if (ch === " " && prev && prev !== " " && prev !== "\n" && prev !== "	") {
            const next = text[i + 1];
            if (next && next !== " " && next !== "\n" && next !== "	")
              split = i;
          }
          if (i >= end) {
            if (split) {
              folds.push(split);
              end = split + endStep;
              split = void 0;
            } else if (mode === FOLD_QUOTED) {
              while (prev === " " || prev === "	") {
                prev = ch;
                ch = text[i += 1];
                overflow = true;
              }
              const j = i > escEnd + 1 ? i - 2 : escStart - 1;
              if (escapedFolds[j])
                return text;
              folds.push(j);
              escapedFolds[j] = true;
              end = j + endStep;
              split = void 0;
            } else {
              overflow = true;
            }
          }
        }
        prev = ch;
      }
      if (overflow && onOverflow)
        onOverflow();
      if (folds.length === 0)
        return text;
      if (onFold)
        onFold();
      let res = text.slice(0, folds[0]);
      for (let i2 = 0; i2 < folds.length; ++i2) {
        const fold = folds[i2];
        const end2 = folds[i2 + 1] || text.length;
        if (fold === 0)
          res = `
${indent}${text.slice(0, end2)}`;
        else {
          if (mode === FOLD_QUOTED && escapedFolds[fold])
            res += `${text[fold]}\\`;
          res += `
${indent}${text.slice(fold + 1, end2)}`;
        }
      }
      return res;
    }
    function consumeMoreIndentedLines(text, i, indent) {
      let end = i;
      let start = i + 1;
      let ch = text[start];
      while (ch === " " || ch === "	") {
        if (i < start + indent) {
          ch = text[++i];
        } else {
          do {
            ch = text[++i];
          } while (ch && ch !== "\n");
          end = i;
          start = i + 1;
          ch = text[start];
        }
      }
      return end;
    }
    exports.FOLD_BLOCK = FOLD_BLOCK;
    exports.FOLD_FLOW = FOLD_FLOW;
    exports.FOLD_QUOTED = FOLD_QUOTED;
    exports.foldFlowLines = foldFlowLines;
  }
});

// node_modules/yaml/dist/stringify/stringifyString.js
var require_stringifyString = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyString.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var foldFlowLines = require_foldFlowLines();
    var getFoldOptions = (ctx, isBlock) => ({
      indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
      lineWidth: ctx.options.lineWidth,
      minContentWidth: ctx.options.minContentWidth
    });
    var containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
    function lineLengthOverLimit(str, lineWidth, indentLength) {
      if (!lineWidth || lineWidth < 0)
        return false;
      const limit = lineWidth - indentLength;
      const strLen = str.length;
      if (strLen <= limit)
        return false;
      for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === "\n") {
          if (i - start > limit)
            return true;
          start = i + 1;
          if (strLen - start <= limit)
            return false;
        }
      }
      return true;
    }
    function doubleQuotedString(value, ctx) {
      const json = JSON.stringify(value);
      if (ctx.options.doubleQuotedAsJSON)
        return json;
      const { implicitKey } = ctx;
      const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      let str = "";
      let start = 0;
      for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === " " && json[i + 1] === "\\" && json[i + 2] === "n") {
          str += json.slice(start, i) + "\\ ";
          i += 1;
          start = i;
          ch = "\\";
        }
        if (ch === "\\")
          switch (json[i + 1]) {
            case "u":
              {
                str += json.slice(start, i);
                const code2 = json.substr(i + 2, 4);
                switch (code2) {
                  case "0000":
                    str += "\\0";
                    break;
                  case "0007":
                    str += "\\a";
                    break;
                  case "000b":
                    str += "\\v";
                    break;
                  case "001b":
                    str += "\\e";
                    break;
                  case "0085":
                    str += "\\N";
                    break;
                  case "00a0":
                    str += "\\_";
                    break;
                  case "2028":
                    str += "\\L";
                    break;
                  case "2029":
                    str += "\\P";
                    break;
                  default:
                    if (code2.substr(0, 2) === "00")
                      str += "\\x" + code2.substr(2);
                    else
                      str += json.substr(i, 6);
                }
                i += 5;
                start = i + 1;
              }
              break;
            case "n":
              if (implicitKey || json[i + 2] === '"' || json.length < minMultiLineLength) {
                i += 1;
              } else {
                str += json.slice(start, i) + "\n\n";
                while (json[i + 2] === "\\" && json[i + 3] === "n" && json[i + 4] !== '"') {
                  str += "\n";
                  i += 2;
                }
                str += indent;
                if (json[i + 2] === " ")
                  str += "\\";
                i += 1;
                start = i + 1;
              }
              break;
            default:
              i += 1;
          }
      }
      str = start ? str + json.slice(start) : json;
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
    }
    function singleQuotedString(value, ctx) {
      if (ctx.options.singleQuote === false || ctx.implicitKey && value.includes("\n") || /[ \t]\n|\n[ \t]/.test(value))
        return doubleQuotedString(value, ctx);
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&
${indent}`) + "'";
      return ctx.implicitKey ? res : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function quotedString(value, ctx) {
      const { singleQuote } = ctx.options;
      let qs;
      if (singleQuote === false)
        qs = doubleQuotedString;
      else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
          qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
          qs = doubleQuotedString;
        else
          qs = singleQuote ? singleQuotedString : doubleQuotedString;
      }
      return qs(value, ctx);
    }
    var blockEndNewlines;
    try {
      blockEndNewlines = new RegExp("(^|(?<!\n))\n+(?!\n|$)", "g");
    } catch {
      blockEndNewlines = /\n+(?!\n|$)/g;
    }
    function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
      const { blockQuote, commentString, lineWidth } = ctx.options;
      if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
      }
      const indent = ctx.indent || (ctx.forceBlockIndent || containsDocumentMarker(value) ? "  " : "");
      const literal2 = blockQuote === "literal" ? true : blockQuote === "folded" || type === Scalar.Scalar.BLOCK_FOLDED ? false : type === Scalar.Scalar.BLOCK_LITERAL ? true : !lineLengthOverLimit(value, lineWidth, indent.length);
      if (!value)
        return literal2 ? "|\n" : ">\n";
      let chomp;
      let endStart;
      for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== "\n" && ch !== "	" && ch !== " ")
          break;
      }
      let end = value.substring(endStart);
      const endNlPos = end.indexOf("\n");
      if (endNlPos === -1) {
        chomp = "-";
      } else if (value === end || endNlPos !== end.length - 1) {
        chomp = "+";
        if (onChompKeep)
          onChompKeep();
      } else {
        chomp = "";
      }
      if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === "\n")
          end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
      }
      let startWithSpace = false;
      let startEnd;
      let startNlPos = -1;
      for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === " ")
          startWithSpace = true;
        else if (ch === "\n")
          startNlPos = startEnd;
        else
          break;
      }
      let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
      if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
      }
      const indentSize = indent ? "2" : "1";
      let header = (startWithSpace ? indentSize : "") + chomp;
      if (comment) {
        header += " " + commentString(comment.replace(/ ?[\r\n]+/g, " "));
        if (onComment)
          onComment();
      }
      if (!literal2) {
        const foldedValue = value.replace(/\n+/g, "\n$&").replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, "$1$2").replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== "folded" && type !== Scalar.Scalar.BLOCK_FOLDED) {
          foldOptions.onOverflow = () => {
            literalFallback = true;
          };
        }
        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
        if (!literalFallback)
          return `>${header}
${indent}${body}`;
      }
      value = value.replace(/\n+/g, `$&${indent}`);
      return `|${header}
${indent}${start}${value}${end}`;
    }
    function plainString(item, ctx, onComment, onChompKeep) {
      const { type, value } = item;
      const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
      if (implicitKey && value.includes("\n") || inFlow && /[[\]{},]/.test(value)) {
        return quotedString(value, ctx);
      }
      if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        return implicitKey || inFlow || !value.includes("\n") ? quotedString(value, ctx) : blockString(item, ctx, onComment, onChompKeep);
      }
      if (!implicitKey && !inFlow && type !== Scalar.Scalar.PLAIN && value.includes("\n")) {
        return blockString(item, ctx, onComment, onChompKeep);
      }
      if (containsDocumentMarker(value)) {
        if (indent === "") {
          ctx.forceBlockIndent = true;
          return blockString(item, ctx, onComment, onChompKeep);
        } else if (implicitKey && indent === indentStep) {
          return quotedString(value, ctx);
        }
      }
      const str = value.replace(/\n+/g, `$&
${indent}`);
      if (actualString) {
        const test = (tag) => tag.default && tag.tag !== "tag:yaml.org,2002:str" && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
          return quotedString(value, ctx);
      }
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function stringifyString(item, ctx, onComment, onChompKeep) {
      const { implicitKey, inFlow } = ctx;
      const ss = typeof item.value === "string" ? item : Object.assign({}, item, { value: String(item.value) });
      let { type } = item;
      if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
          type = Scalar.Scalar.QUOTE_DOUBLE;
      }
      const _stringify = (_type) => {
        switch (_type) {
          case Scalar.Scalar.BLOCK_FOLDED:
          case Scalar.Scalar.BLOCK_LITERAL:
            return implicitKey || inFlow ? quotedString(ss.value, ctx) : blockString(ss, ctx, onComment, onChompKeep);
          case Scalar.Scalar.QUOTE_DOUBLE:
            return doubleQuotedString(ss.value, ctx);
          case Scalar.Scalar.QUOTE_SINGLE:
            return singleQuotedString(ss.value, ctx);
          case Scalar.Scalar.PLAIN:
            return plainString(ss, ctx, onComment, onChompKeep);
          default:
            return null;
        }
      };
      let res = _stringify(type);
      if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = implicitKey && defaultKeyType || defaultStringType;
        res = _stringify(t);
        if (res === null)
          throw new Error(`Unsupported default string type ${t}`);
      }
      return res;
    }
    exports.stringifyString = stringifyString;
  }
});

// node_modules/yaml/dist/stringify/stringify.js
var require_stringify = __commonJS({
  "node_modules/yaml/dist/stringify/stringify.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var identity = require_identity();
    var stringifyComment = require_stringifyComment();
    var stringifyString = require_stringifyString();
    function createStringifyContext(doc, options) {
      const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment.stringifyComment,
        defaultKeyType: null,
        defaultStringType: "PLAIN",
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: "false",
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: "null",
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: "true",
        verifyAliasOrder: true
      }, doc.schema.toStringOptions, options);
      let inFlow;
      switch (opt.collectionStyle) {
        case "block":
          inFlow = false;
          break;
        case "flow":
          inFlow = true;
          break;
        default:
          inFlow = null;
      }
      return {
        anchors: /* @__PURE__ */ new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? " " : "",
        indent: "",
        indentStep: typeof opt.indent === "number" ? " ".repeat(opt.indent) : "  ",
        inFlow,
        options: opt
      };
    }
    function getTagObject(tags, item) {
      if (item.tag) {
        const match = tags.filter((t) => t.tag === item.tag);
        if (match.length > 0)
          return match.find((t) => t.format === item.format) ?? match[0];
      }
      let tagObj = void 0;
      let obj;
      if (identity.isScalar(item)) {
        obj = item.value;
        let match = tags.filter((t) => t.identify?.(obj));
        if (match.length > 1) {
          const testMatch = match.filter((t) => t.test);
          if (testMatch.length > 0)
            match = testMatch;
        }
        tagObj = match.find((t) => t.format === item.format) ?? match.find((t) => !t.format);
      } else {
        obj = item;
        tagObj = tags.find((t) => t.nodeClass && obj instanceof t.nodeClass);
      }
      if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? "null" : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
      }
      return tagObj;
    }
    function stringifyProps(node2, tagObj, { anchors: anchors$1, doc }) {
      if (!doc.directives)
        return "";
      const props = [];
      const anchor2 = (identity.isScalar(node2) || identity.isCollection(node2)) && node2.anchor;
      if (anchor2 && anchors.anchorIsValid(anchor2)) {
        anchors$1.add(anchor2);
        props.push(`&${anchor2}`);
      }
      const tag = node2.tag ?? (tagObj.default ? null : tagObj.tag);
      if (tag)
        props.push(doc.directives.tagString(tag));
      return props.join(" ");
    }
    function stringify(item, ctx, onComment, onChompKeep) {
      if (identity.isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
      if (identity.isAlias(item)) {
        if (ctx.doc.directives)
          return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
          throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        } else {
          if (ctx.resolvedAliases)
            ctx.resolvedAliases.add(item);
          else
            ctx.resolvedAliases = /* @__PURE__ */ new Set([item]);
          item = item.resolve(ctx.doc);
        }
      }
      let tagObj = void 0;
      const node2 = identity.isNode(item) ? item : ctx.doc.createNode(item, { onTagObj: (o) => tagObj = o });
      tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node2));
      const props = stringifyProps(node2, tagObj, ctx);
      if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
      const str = typeof tagObj.stringify === "function" ? tagObj.stringify(node2, ctx, onComment, onChompKeep) : identity.isScalar(node2) ? stringifyString.stringifyString(node2, ctx, onComment, onChompKeep) : node2.toString(ctx, onComment, onChompKeep);
      if (!props)
        return str;
      return identity.isScalar(node2) || str[0] === "{" || str[0] === "[" ? `${props} ${str}` : `${props}
${ctx.indent}${str}`;
    }
    exports.createStringifyContext = createStringifyContext;
    exports.stringify = stringify;
  }
});

// node_modules/yaml/dist/stringify/stringifyPair.js
var require_stringifyPair = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyPair.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var stringify = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
      const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
      let keyComment = identity.isNode(key) && key.comment || null;
      if (simpleKeys) {
        if (keyComment) {
          throw new Error("With simple keys, key nodes cannot have comments");
        }
        if (identity.isCollection(key) || !identity.isNode(key) && typeof key === "object") {
          const msg = "With simple keys, collection cannot be used as a key value";
          throw new Error(msg);
        }
      }
      let explicitKey = !simpleKeys && (!key || keyComment && value == null && !ctx.inFlow || identity.isCollection(key) || (identity.isScalar(key) ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL : typeof key === "object"));
      ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
      });
      let keyCommentDone = false;
      let chompKeep = false;
      let str = stringify.stringify(key, ctx, () => keyCommentDone = true, () => chompKeep = true);
      if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
          throw new Error("With simple keys, single line scalar must not span more than 1024 characters");
        explicitKey = true;
      }
      if (ctx.inFlow) {
        if (allNullValues || value == null) {
          if (keyCommentDone && onComment)
            onComment();
          return str === "" ? "?" : explicitKey ? `? ${str}` : str;
        }
      } else if (allNullValues && !simpleKeys || value == null && explicitKey) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        } else if (chompKeep && onChompKeep)
          onChompKeep();
        return str;
      }
      if (keyCommentDone)
        keyComment = null;
      if (explicitKey) {
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}
${indent}:`;
      } else {
        str = `${str}:`;
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
      }
      let vsb, vcb, valueComment;
      if (identity.isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
      } else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === "object")
          value = doc.createNode(value);
      }
      ctx.implicitKey = false;
      if (!explicitKey && !keyComment && identity.isScalar(value))
        ctx.indentAtStart = str.length + 1;
      chompKeep = false;
      if (!indentSeq && indentStep.length >= 2 && !ctx.inFlow && !explicitKey && identity.isSeq(value) && !value.flow && !value.tag && !value.anchor) {
        ctx.indent = ctx.indent.substring(2);
      }
      let valueCommentDone = false;
      const valueStr = stringify.stringify(value, ctx, () => valueCommentDone = true, () => chompKeep = true);
      let ws = " ";
      if (keyComment || vsb || vcb) {
        ws = vsb ? "\n" : "";
        if (vcb) {
          const cs = commentString(vcb);
          ws += `
${stringifyComment.indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === "" && !ctx.inFlow) {
          if (ws === "\n" && valueComment)
            ws = "\n\n";
        } else {
          ws += `
${ctx.indent}`;
        }
      } else if (!explicitKey && identity.isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf("\n");
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
          let hasPropsLine = false;
          if (hasNewline && (vs0 === "&" || vs0 === "!")) {
            let sp0 = valueStr.indexOf(" ");
            if (vs0 === "&" && sp0 !== -1 && sp0 < nl0 && valueStr[sp0 + 1] === "!") {
              sp0 = valueStr.indexOf(" ", sp0 + 1);
            }
            if (sp0 === -1 || nl0 < sp0)
              hasPropsLine = true;
          }
          if (!hasPropsLine)
            ws = `
${ctx.indent}`;
        }
      } else if (valueStr === "" || valueStr[0] === "\n") {
        ws = "";
      }
      str += ws + valueStr;
      if (ctx.inFlow) {
        if (valueCommentDone && onComment)
          onComment();
      } else if (valueComment && !valueCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
      } else if (chompKeep && onChompKeep) {
        onChompKeep();
      }
      return str;
    }
    exports.stringifyPair = stringifyPair;
  }
});

// node_modules/yaml/dist/log.js
var require_log = __commonJS({
  "node_modules/yaml/dist/log.js"(exports) {
    "use strict";
    var node_process = __require("process");
    function debug(logLevel, ...messages) {
      if (logLevel === "debug")
        console.log(...messages);
    }
    function warn(logLevel, warning) {
      if (logLevel === "debug" || logLevel === "warn") {
        if (typeof node_process.emitWarning === "function")
          node_process.emitWarning(warning);
        else
          console.warn(warning);
      }
    }
    exports.debug = debug;
    exports.warn = warn;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/merge.js
var require_merge = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/merge.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var MERGE_KEY = "<<";
    var merge2 = {
      identify: (value) => value === MERGE_KEY || typeof value === "symbol" && value.description === MERGE_KEY,
      default: "key",
      tag: "tag:yaml.org,2002:merge",
      test: /^<<$/,
      resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
      }),
      stringify: () => MERGE_KEY
    };
    var isMergeKey = (ctx, key) => (merge2.identify(key) || identity.isScalar(key) && (!key.type || key.type === Scalar.Scalar.PLAIN) && merge2.identify(key.value)) && ctx?.doc.schema.tags.some((tag) => tag.tag === merge2.tag && tag.default);
    function addMergeToJSMap(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (identity.isSeq(source))
        for (const it of source.items)
          mergeValue(ctx, map, it);
      else if (Array.isArray(source))
        for (const it of source)
          mergeValue(ctx, map, it);
      else
        mergeValue(ctx, map, source);
    }
    function mergeValue(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (!identity.isMap(source))
        throw new Error("Merge sources must be maps or map aliases");
      const srcMap = source.toJSON(null, ctx, Map);
      for (const [key, value2] of srcMap) {
        if (map instanceof Map) {
          if (!map.has(key))
            map.set(key, value2);
        } else if (map instanceof Set) {
          map.add(key);
        } else if (!Object.prototype.hasOwnProperty.call(map, key)) {
          Object.defineProperty(map, key, {
            value: value2,
            writable: true,
            enumerable: true,
            configurable: true
          });
        }
      }
      return map;
    }
    function resolveAliasValue(ctx, value) {
      return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
    }
    exports.addMergeToJSMap = addMergeToJSMap;
    exports.isMergeKey = isMergeKey;
    exports.merge = merge2;
  }
});

// node_modules/yaml/dist/nodes/addPairToJSMap.js
var require_addPairToJSMap = __commonJS({
  "node_modules/yaml/dist/nodes/addPairToJSMap.js"(exports) {
    "use strict";
    var log = require_log();
    var merge2 = require_merge();
    var stringify = require_stringify();
    var identity = require_identity();
    var toJS = require_toJS();
    function addPairToJSMap(ctx, map, { key, value }) {
      if (identity.isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
      else if (merge2.isMergeKey(ctx, key))
        merge2.addMergeToJSMap(ctx, map, value);
      else {
        const jsKey = toJS.toJS(key, "", ctx);
        if (map instanceof Map) {
          map.set(jsKey, toJS.toJS(value, jsKey, ctx));
        } else if (map instanceof Set) {
          map.add(jsKey);
        } else {
          const stringKey = stringifyKey(key, jsKey, ctx);
          const jsValue = toJS.toJS(value, stringKey, ctx);
          if (stringKey in map)
            Object.defineProperty(map, stringKey, {
              value: jsValue,
              writable: true,
              enumerable: true,
              configurable: true
            });
          else
            map[stringKey] = jsValue;
        }
      }
      return map;
    }
    function stringifyKey(key, jsKey, ctx) {
      if (jsKey === null)
        return "";
      if (typeof jsKey !== "object")
        return String(jsKey);
      if (identity.isNode(key) && ctx?.doc) {
        const strCtx = stringify.createStringifyContext(ctx.doc, {});
        strCtx.anchors = /* @__PURE__ */ new Set();
        for (const node2 of ctx.anchors.keys())
          strCtx.anchors.add(node2.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
          let jsonStr = JSON.stringify(strKey);
          if (jsonStr.length > 40)
            jsonStr = jsonStr.substring(0, 36) + '..."';
          log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
          ctx.mapKeyWarned = true;
        }
        return strKey;
      }
      return JSON.stringify(jsKey);
    }
    exports.addPairToJSMap = addPairToJSMap;
  }
});

// node_modules/yaml/dist/nodes/Pair.js
var require_Pair = __commonJS({
  "node_modules/yaml/dist/nodes/Pair.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyPair = require_stringifyPair();
    var addPairToJSMap = require_addPairToJSMap();
    var identity = require_identity();
    function createPair(key, value, ctx) {
      const k = createNode.createNode(key, void 0, ctx);
      const v = createNode.createNode(value, void 0, ctx);
      return new Pair(k, v);
    }
    var Pair = class _Pair {
      constructor(key, value = null) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
        this.key = key;
        this.value = value;
      }
      clone(schema) {
        let { key, value } = this;
        if (identity.isNode(key))
          key = key.clone(schema);
        if (identity.isNode(value))
          value = value.clone(schema);
        return new _Pair(key, value);
      }
      toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
      }
      toString(ctx, onComment, onChompKeep) {
        return ctx?.doc ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep) : JSON.stringify(this);
      }
    };
    exports.Pair = Pair;
    exports.createPair = createPair;
  }
});

// node_modules/yaml/dist/stringify/stringifyCollection.js
var require_stringifyCollection = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyCollection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyCollection(collection, ctx, options) {
      const flow = ctx.inFlow ?? collection.flow;
      const stringify2 = flow ? stringifyFlowCollection : stringifyBlockCollection;
      return stringify2(collection, ctx, options);
    }
    function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
      const { indent, options: { commentString } } = ctx;
      const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
      let chompKeep = false;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment2 = null;
        if (identity.isNode(item)) {
          if (!chompKeep && item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
          if (item.comment)
            comment2 = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (!chompKeep && ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
          }
        }
        chompKeep = false;
        let str2 = stringify.stringify(item, itemCtx, () => comment2 = null, () => chompKeep = true);
        if (comment2)
          str2 += stringifyComment.lineComment(str2, itemIndent, commentString(comment2));
        if (chompKeep && comment2)
          chompKeep = false;
        lines.push(blockItemPrefix + str2);
      }
      let str;
      if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
      } else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
          const line = lines[i];
          str += line ? `
${indent}${line}` : "\n";
        }
      }
      if (comment) {
        str += "\n" + stringifyComment.indentComment(commentString(comment), indent);
        if (onComment)
          onComment();
      } else if (chompKeep && onChompKeep)
        onChompKeep();
      return str;
    }
    function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
      const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
      itemIndent += indentStep;
      const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
      });
      let reqNewline = false;
      let linesAtValue = 0;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
          if (item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, false);
          if (item.comment)
            comment = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, false);
            if (ik.comment)
              reqNewline = true;
          }
          const iv = identity.isNode(item.value) ? item.value : null;
          if (iv) {
            if (iv.comment)
              comment = iv.comment;
            if (iv.commentBefore)
              reqNewline = true;
          } else if (item.value == null && ik?.comment) {
            comment = ik.comment;
          }
        }
        if (comment)
          reqNewline = true;
        let str = stringify.stringify(item, itemCtx, () => comment = null);
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes("\n"));
        if (i < items.length - 1) {
          str += ",";
        } else if (ctx.options.trailingComma) {
          if (ctx.options.lineWidth > 0) {
            reqNewline || (reqNewline = lines.reduce((sum2, line) => sum2 + line.length + 2, 2) + (str.length + 2) > ctx.options.lineWidth);
          }
          if (reqNewline) {
            str += ",";
          }
        }
        if (comment)
          str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
      }
      const { start, end } = flowChars;
      if (lines.length === 0) {
        return start + end;
      } else {
        if (!reqNewline) {
          const len = lines.reduce((sum2, line) => sum2 + line.length + 2, 2);
          reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
          let str = start;
          for (const line of lines)
            str += line ? `
${indentStep}${indent}${line}` : "\n";
          return `${str}
${indent}${end}`;
        } else {
          return `${start}${fcPadding}${lines.join(" ")}${fcPadding}${end}`;
        }
      }
    }
    function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
      if (comment && chompKeep)
        comment = comment.replace(/^\n+/, "");
      if (comment) {
        const ic = stringifyComment.indentComment(commentString(comment), indent);
        lines.push(ic.trimStart());
      }
    }
    exports.stringifyCollection = stringifyCollection;
  }
});

// node_modules/yaml/dist/nodes/YAMLMap.js
var require_YAMLMap = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLMap.js"(exports) {
    "use strict";
    var stringifyCollection = require_stringifyCollection();
    var addPairToJSMap = require_addPairToJSMap();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    function findPair(items, key) {
      const k = identity.isScalar(key) ? key.value : key;
      for (const it of items) {
        if (identity.isPair(it)) {
          if (it.key === key || it.key === k)
            return it;
          if (identity.isScalar(it.key) && it.key.value === k)
            return it;
        }
      }
      return void 0;
    }
    var YAMLMap = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:map";
      }
      constructor(schema) {
        super(identity.MAP, schema);
        this.items = [];
      }
      /**
       * A generic collection parsing method that can be extended
       * to other node classes that inherit from YAMLMap
       */
      static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
          if (typeof replacer === "function")
            value = replacer.call(obj, key, value);
          else if (Array.isArray(replacer) && !replacer.includes(key))
            return;
          if (value !== void 0 || keepUndefined)
            map.items.push(Pair.createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
          for (const [key, value] of obj)
            add(key, value);
        } else if (obj && typeof obj === "object") {
          for (const key of Object.keys(obj))
            add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === "function") {
          map.items.sort(schema.sortMapEntries);
        }
        return map;
      }
      /**
       * Adds a value to the collection.
       *
       * @param overwrite - If not set `true`, using a key that is already in the
       *   collection will throw. Otherwise, overwrites the previous value.
       */
      add(pair, overwrite) {
        let _pair;
        if (identity.isPair(pair))
          _pair = pair;
        else if (!pair || typeof pair !== "object" || !("key" in pair)) {
          _pair = new Pair.Pair(pair, pair?.value);
        } else
          _pair = new Pair.Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
          if (!overwrite)
            throw new Error(`Key ${_pair.key} already set`);
          if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
            prev.value.value = _pair.value;
          else
            prev.value = _pair.value;
        } else if (sortEntries) {
          const i = this.items.findIndex((item) => sortEntries(_pair, item) < 0);
          if (i === -1)
            this.items.push(_pair);
          else
            this.items.splice(i, 0, _pair);
        } else {
          this.items.push(_pair);
        }
      }
      delete(key) {
        const it = findPair(this.items, key);
        if (!it)
          return false;
        const del2 = this.items.splice(this.items.indexOf(it), 1);
        return del2.length > 0;
      }
      get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node2 = it?.value;
        return (!keepScalar && identity.isScalar(node2) ? node2.value : node2) ?? void 0;
      }
      has(key) {
        return !!findPair(this.items, key);
      }
      set(key, value) {
        this.add(new Pair.Pair(key, value), true);
      }
      /**
       * @param ctx - Conversion context, originally set in Document#toJS()
       * @param {Class} Type - If set, forces the returned collection type
       * @returns Instance of Type, Map, or Object
       */
      toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const item of this.items)
          addPairToJSMap.addPairToJSMap(ctx, map, item);
        return map;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        for (const item of this.items) {
          if (!identity.isPair(item))
            throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
          ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "",
          flowChars: { start: "{", end: "}" },
          itemIndent: ctx.indent || "",
          onChompKeep,
          onComment
        });
      }
    };
    exports.YAMLMap = YAMLMap;
    exports.findPair = findPair;
  }
});

// node_modules/yaml/dist/schema/common/map.js
var require_map = __commonJS({
  "node_modules/yaml/dist/schema/common/map.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLMap = require_YAMLMap();
    var map = {
      collection: "map",
      default: true,
      nodeClass: YAMLMap.YAMLMap,
      tag: "tag:yaml.org,2002:map",
      resolve(map2, onError) {
        if (!identity.isMap(map2))
          onError("Expected a mapping for this tag");
        return map2;
      },
      createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
    };
    exports.map = map;
  }
});

// node_modules/yaml/dist/nodes/YAMLSeq.js
var require_YAMLSeq = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLSeq.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyCollection = require_stringifyCollection();
    var Collection = require_Collection();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var toJS = require_toJS();
    var YAMLSeq = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:seq";
      }
      constructor(schema) {
        super(identity.SEQ, schema);
        this.items = [];
      }
      add(value) {
        this.items.push(value);
      }
      /**
       * Removes a value from the collection.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       *
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return false;
        const del2 = this.items.splice(idx, 1);
        return del2.length > 0;
      }
      get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return void 0;
        const it = this.items[idx];
        return !keepScalar && identity.isScalar(it) ? it.value : it;
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       */
      has(key) {
        const idx = asItemIndex(key);
        return typeof idx === "number" && idx < this.items.length;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       *
       * If `key` does not contain a representation of an integer, this will throw.
       * It may be wrapped in a `Scalar`.
       */
      set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
          prev.value = value;
        else
          this.items[idx] = value;
      }
      toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
          ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
          seq.push(toJS.toJS(item, String(i++), ctx));
        return seq;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "- ",
          flowChars: { start: "[", end: "]" },
          itemIndent: (ctx.indent || "") + "  ",
          onChompKeep,
          onComment
        });
      }
      static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
          let i = 0;
          for (let it of obj) {
            if (typeof replacer === "function") {
              const key = obj instanceof Set ? it : String(i++);
              it = replacer.call(obj, key, it);
            }
            seq.items.push(createNode.createNode(it, void 0, ctx));
          }
        }
        return seq;
      }
    };
    function asItemIndex(key) {
      let idx = identity.isScalar(key) ? key.value : key;
      if (idx && typeof idx === "string")
        idx = Number(idx);
      return typeof idx === "number" && Number.isInteger(idx) && idx >= 0 ? idx : null;
    }
    exports.YAMLSeq = YAMLSeq;
  }
});

// node_modules/yaml/dist/schema/common/seq.js
var require_seq = __commonJS({
  "node_modules/yaml/dist/schema/common/seq.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLSeq = require_YAMLSeq();
    var seq = {
      collection: "seq",
      default: true,
      nodeClass: YAMLSeq.YAMLSeq,
      tag: "tag:yaml.org,2002:seq",
      resolve(seq2, onError) {
        if (!identity.isSeq(seq2))
          onError("Expected a sequence for this tag");
        return seq2;
      },
      createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
    };
    exports.seq = seq;
  }
});

// node_modules/yaml/dist/schema/common/string.js
var require_string = __commonJS({
  "node_modules/yaml/dist/schema/common/string.js"(exports) {
    "use strict";
    var stringifyString = require_stringifyString();
    var string3 = {
      identify: (value) => typeof value === "string",
      default: true,
      tag: "tag:yaml.org,2002:str",
      resolve: (str) => str,
      stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
      }
    };
    exports.string = string3;
  }
});

// node_modules/yaml/dist/schema/common/null.js
var require_null = __commonJS({
  "node_modules/yaml/dist/schema/common/null.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var nullTag = {
      identify: (value) => value == null,
      createNode: () => new Scalar.Scalar(null),
      default: true,
      tag: "tag:yaml.org,2002:null",
      test: /^(?:~|[Nn]ull|NULL)?$/,
      resolve: () => new Scalar.Scalar(null),
      stringify: ({ source }, ctx) => typeof source === "string" && nullTag.test.test(source) ? source : ctx.options.nullStr
    };
    exports.nullTag = nullTag;
  }
});

// node_modules/yaml/dist/schema/core/bool.js
var require_bool = __commonJS({
  "node_modules/yaml/dist/schema/core/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var boolTag = {
      identify: (value) => typeof value === "boolean",
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
      resolve: (str) => new Scalar.Scalar(str[0] === "t" || str[0] === "T"),
      stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
          const sv = source[0] === "t" || source[0] === "T";
          if (value === sv)
            return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
      }
    };
    exports.boolTag = boolTag;
  }
});

// node_modules/yaml/dist/stringify/stringifyNumber.js
var require_stringifyNumber = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyNumber.js"(exports) {
    "use strict";
    function stringifyNumber({ format, minFractionDigits, tag, value }) {
      if (typeof value === "bigint")
        return String(value);
      const num = typeof value === "number" ? value : Number(value);
      if (!isFinite(num))
        return isNaN(num) ? ".nan" : num < 0 ? "-.inf" : ".inf";
      let n = Object.is(value, -0) ? "-0" : JSON.stringify(value);
      if (!format && minFractionDigits && (!tag || tag === "tag:yaml.org,2002:float") && /^-?\d/.test(n) && !n.includes("e")) {
        let i = n.indexOf(".");
        if (i < 0) {
          i = n.length;
          n += ".";
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
          n += "0";
      }
      return n;
    }
    exports.stringifyNumber = stringifyNumber;
  }
});

// node_modules/yaml/dist/schema/core/float.js
var require_float = __commonJS({
  "node_modules/yaml/dist/schema/core/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str),
      stringify(node2) {
        const num = Number(node2.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node2);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
      resolve(str) {
        const node2 = new Scalar.Scalar(parseFloat(str));
        const dot = str.indexOf(".");
        if (dot !== -1 && str[str.length - 1] === "0")
          node2.minFractionDigits = str.length - dot - 1;
        return node2;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/core/int.js
var require_int = __commonJS({
  "node_modules/yaml/dist/schema/core/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    var intResolve = (str, offset, radix, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix);
    function intStringify(node2, radix, prefix) {
      const { value } = node2;
      if (intIdentify(value) && value >= 0)
        return prefix + value.toString(radix);
      return stringifyNumber.stringifyNumber(node2);
    }
    var intOct = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^0o[0-7]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
      stringify: (node2) => intStringify(node2, 8, "0o")
    };
    var int2 = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^0x[0-9a-fA-F]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node2) => intStringify(node2, 16, "0x")
    };
    exports.int = int2;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/core/schema.js
var require_schema = __commonJS({
  "node_modules/yaml/dist/schema/core/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null3 = require_null();
    var seq = require_seq();
    var string3 = require_string();
    var bool = require_bool();
    var float = require_float();
    var int2 = require_int();
    var schema = [
      map.map,
      seq.seq,
      string3.string,
      _null3.nullTag,
      bool.boolTag,
      int2.intOct,
      int2.int,
      int2.intHex,
      float.floatNaN,
      float.floatExp,
      float.float
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/json/schema.js
var require_schema2 = __commonJS({
  "node_modules/yaml/dist/schema/json/schema.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var map = require_map();
    var seq = require_seq();
    function intIdentify(value) {
      return typeof value === "bigint" || Number.isInteger(value);
    }
    var stringifyJSON = ({ value }) => JSON.stringify(value);
    var jsonScalars = [
      {
        identify: (value) => typeof value === "string",
        default: true,
        tag: "tag:yaml.org,2002:str",
        resolve: (str) => str,
        stringify: stringifyJSON
      },
      {
        identify: (value) => value == null,
        createNode: () => new Scalar.Scalar(null),
        default: true,
        tag: "tag:yaml.org,2002:null",
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
      },
      {
        identify: (value) => typeof value === "boolean",
        default: true,
        tag: "tag:yaml.org,2002:bool",
        test: /^true$|^false$/,
        resolve: (str) => str === "true",
        stringify: stringifyJSON
      },
      {
        identify: intIdentify,
        default: true,
        tag: "tag:yaml.org,2002:int",
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
      },
      {
        identify: (value) => typeof value === "number",
        default: true,
        tag: "tag:yaml.org,2002:float",
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: (str) => parseFloat(str),
        stringify: stringifyJSON
      }
    ];
    var jsonError = {
      default: true,
      tag: "",
      test: /^/,
      resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
      }
    };
    var schema = [map.map, seq.seq].concat(jsonScalars, jsonError);
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/binary.js
var require_binary = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/binary.js"(exports) {
    "use strict";
    var node_buffer = __require("buffer");
    var Scalar = require_Scalar();
    var stringifyString = require_stringifyString();
    var binary = {
      identify: (value) => value instanceof Uint8Array,
      // Buffer inherits from Uint8Array
      default: false,
      tag: "tag:yaml.org,2002:binary",
      /**
       * Returns a Buffer in node and an Uint8Array in browsers
       *
       * To use the resulting buffer as an image, you'll want to do something like:
       *
       *   const blob = new Blob([buffer], { type: 'image/jpeg' })
       *   document.querySelector('#photo').src = URL.createObjectURL(blob)
       */
      resolve(src, onError) {
        if (typeof node_buffer.Buffer === "function") {
          return node_buffer.Buffer.from(src, "base64");
        } else if (typeof atob === "function") {
          const str = atob(src.replace(/[\n\r]/g, ""));
          const buffer = new Uint8Array(str.length);
          for (let i = 0; i < str.length; ++i)
            buffer[i] = str.charCodeAt(i);
          return buffer;
        } else {
          onError("This environment does not support reading binary tags; either Buffer or atob is required");
          return src;
        }
      },
      stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
          return "";
        const buf = value;
        let str;
        if (typeof node_buffer.Buffer === "function") {
          str = buf instanceof node_buffer.Buffer ? buf.toString("base64") : node_buffer.Buffer.from(buf.buffer).toString("base64");
        } else if (typeof btoa === "function") {
          let s = "";
          for (let i = 0; i < buf.length; ++i)
            s += String.fromCharCode(buf[i]);
          str = btoa(s);
        } else {
          throw new Error("This environment does not support writing binary tags; either Buffer or btoa is required");
        }
        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
          const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
          const n = Math.ceil(str.length / lineWidth);
          const lines = new Array(n);
          for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
            lines[i] = str.substr(o, lineWidth);
          }
          str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? "\n" : " ");
        }
        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
      }
    };
    exports.binary = binary;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/pairs.js
var require_pairs = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/pairs.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLSeq = require_YAMLSeq();
    function resolvePairs(seq, onError) {
      if (identity.isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
          let item = seq.items[i];
          if (identity.isPair(item))
            continue;
          else if (identity.isMap(item)) {
            if (item.items.length > 1)
              onError("Each pair must have its own sequence indicator");
            const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
            if (item.commentBefore)
              pair.key.commentBefore = pair.key.commentBefore ? `${item.commentBefore}
${pair.key.commentBefore}` : item.commentBefore;
            if (item.comment) {
              const cn = pair.value ?? pair.key;
              cn.comment = cn.comment ? `${item.comment}
${cn.comment}` : item.comment;
            }
            item = pair;
          }
          seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
        }
      } else
        onError("Expected a sequence for this tag");
      return seq;
    }
    function createPairs(schema, iterable, ctx) {
      const { replacer } = ctx;
      const pairs2 = new YAMLSeq.YAMLSeq(schema);
      pairs2.tag = "tag:yaml.org,2002:pairs";
      let i = 0;
      if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
          if (typeof replacer === "function")
            it = replacer.call(iterable, String(i++), it);
          let key, value;
          if (Array.isArray(it)) {
            if (it.length === 2) {
              key = it[0];
              value = it[1];
            } else
              throw new TypeError(`Expected [key, value] tuple: ${it}`);
          } else if (it && it instanceof Object) {
            const keys = Object.keys(it);
            if (keys.length === 1) {
              key = keys[0];
              value = it[key];
            } else {
              throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
            }
          } else {
            key = it;
          }
          pairs2.items.push(Pair.createPair(key, value, ctx));
        }
      return pairs2;
    }
    var pairs = {
      collection: "seq",
      default: false,
      tag: "tag:yaml.org,2002:pairs",
      resolve: resolvePairs,
      createNode: createPairs
    };
    exports.createPairs = createPairs;
    exports.pairs = pairs;
    exports.resolvePairs = resolvePairs;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/omap.js
var require_omap = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/omap.js"(exports) {
    "use strict";
    var identity = require_identity();
    var toJS = require_toJS();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var pairs = require_pairs();
    var YAMLOMap = class _YAMLOMap extends YAMLSeq.YAMLSeq {
      constructor() {
        super();
        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
        this.tag = _YAMLOMap.tag;
      }
      /**
       * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
       * but TypeScript won't allow widening the signature of a child method.
       */
      toJSON(_, ctx) {
        if (!ctx)
          return super.toJSON(_);
        const map = /* @__PURE__ */ new Map();
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const pair of this.items) {
          let key, value;
          if (identity.isPair(pair)) {
            key = toJS.toJS(pair.key, "", ctx);
            value = toJS.toJS(pair.value, key, ctx);
          } else {
            key = toJS.toJS(pair, "", ctx);
          }
          if (map.has(key))
            throw new Error("Ordered maps must not include duplicate keys");
          map.set(key, value);
        }
        return map;
      }
      static from(schema, iterable, ctx) {
        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
        const omap2 = new this();
        omap2.items = pairs$1.items;
        return omap2;
      }
    };
    YAMLOMap.tag = "tag:yaml.org,2002:omap";
    var omap = {
      collection: "seq",
      identify: (value) => value instanceof Map,
      nodeClass: YAMLOMap,
      default: false,
      tag: "tag:yaml.org,2002:omap",
      resolve(seq, onError) {
        const pairs$1 = pairs.resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs$1.items) {
          if (identity.isScalar(key)) {
            if (seenKeys.includes(key.value)) {
              onError(`Ordered maps must not include duplicate keys: ${key.value}`);
            } else {
              seenKeys.push(key.value);
            }
          }
        }
        return Object.assign(new YAMLOMap(), pairs$1);
      },
      createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
    };
    exports.YAMLOMap = YAMLOMap;
    exports.omap = omap;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/bool.js
var require_bool2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function boolStringify({ value, source }, ctx) {
      const boolObj = value ? trueTag : falseTag;
      if (source && boolObj.test.test(source))
        return source;
      return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
    var trueTag = {
      identify: (value) => value === true,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
      resolve: () => new Scalar.Scalar(true),
      stringify: boolStringify
    };
    var falseTag = {
      identify: (value) => value === false,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
      resolve: () => new Scalar.Scalar(false),
      stringify: boolStringify
    };
    exports.falseTag = falseTag;
    exports.trueTag = trueTag;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/float.js
var require_float2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str.replace(/_/g, "")),
      stringify(node2) {
        const num = Number(node2.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node2);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
      resolve(str) {
        const node2 = new Scalar.Scalar(parseFloat(str.replace(/_/g, "")));
        const dot = str.indexOf(".");
        if (dot !== -1) {
          const f = str.substring(dot + 1).replace(/_/g, "");
          if (f[f.length - 1] === "0")
            node2.minFractionDigits = f.length;
        }
        return node2;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/int.js
var require_int2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    function intResolve(str, offset, radix, { intAsBigInt }) {
      const sign = str[0];
      if (sign === "-" || sign === "+")
        offset += 1;
      str = str.substring(offset).replace(/_/g, "");
      if (intAsBigInt) {
        switch (radix) {
          case 2:
            str = `0b${str}`;
            break;
          case 8:
            str = `0o${str}`;
            break;
          case 16:
            str = `0x${str}`;
            break;
        }
        const n2 = BigInt(str);
        return sign === "-" ? BigInt(-1) * n2 : n2;
      }
      const n = parseInt(str, radix);
      return sign === "-" ? -1 * n : n;
    }
    function intStringify(node2, radix, prefix) {
      const { value } = node2;
      if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? "-" + prefix + str.substr(1) : prefix + str;
      }
      return stringifyNumber.stringifyNumber(node2);
    }
    var intBin = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "BIN",
      test: /^[-+]?0b[0-1_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
      stringify: (node2) => intStringify(node2, 2, "0b")
    };
    var intOct = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^[-+]?0[0-7_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
      stringify: (node2) => intStringify(node2, 8, "0")
    };
    var int2 = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9][0-9_]*$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^[-+]?0x[0-9a-fA-F_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node2) => intStringify(node2, 16, "0x")
    };
    exports.int = int2;
    exports.intBin = intBin;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/set.js
var require_set = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/set.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSet = class _YAMLSet extends YAMLMap.YAMLMap {
      constructor(schema) {
        super(schema);
        this.tag = _YAMLSet.tag;
      }
      add(key) {
        let pair;
        if (identity.isPair(key))
          pair = key;
        else if (key && typeof key === "object" && "key" in key && "value" in key && key.value === null)
          pair = new Pair.Pair(key.key, null);
        else
          pair = new Pair.Pair(key, null);
        const prev = YAMLMap.findPair(this.items, pair.key);
        if (!prev)
          this.items.push(pair);
      }
      /**
       * If `keepPair` is `true`, returns the Pair matching `key`.
       * Otherwise, returns the value of that Pair's key.
       */
      get(key, keepPair) {
        const pair = YAMLMap.findPair(this.items, key);
        return !keepPair && identity.isPair(pair) ? identity.isScalar(pair.key) ? pair.key.value : pair.key : pair;
      }
      set(key, value) {
        if (typeof value !== "boolean")
          throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = YAMLMap.findPair(this.items, key);
        if (prev && !value) {
          this.items.splice(this.items.indexOf(prev), 1);
        } else if (!prev && value) {
          this.items.push(new Pair.Pair(key));
        }
      }
      toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        if (this.hasAllNullValues(true))
          return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
          throw new Error("Set items must all have null values");
      }
      static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set2 = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
          for (let value of iterable) {
            if (typeof replacer === "function")
              value = replacer.call(iterable, value, value);
            set2.items.push(Pair.createPair(value, null, ctx));
          }
        return set2;
      }
    };
    YAMLSet.tag = "tag:yaml.org,2002:set";
    var set = {
      collection: "map",
      identify: (value) => value instanceof Set,
      nodeClass: YAMLSet,
      default: false,
      tag: "tag:yaml.org,2002:set",
      createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
      resolve(map, onError) {
        if (identity.isMap(map)) {
          if (map.hasAllNullValues(true))
            return Object.assign(new YAMLSet(), map);
          else
            onError("Set items must all have null values");
        } else
          onError("Expected a mapping for this tag");
        return map;
      }
    };
    exports.YAMLSet = YAMLSet;
    exports.set = set;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/timestamp.js
var require_timestamp = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/timestamp.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    function parseSexagesimal(str, asBigInt) {
      const sign = str[0];
      const parts = sign === "-" || sign === "+" ? str.substring(1) : str;
      const num = (n) => asBigInt ? BigInt(n) : Number(n);
      const res = parts.replace(/_/g, "").split(":").reduce((res2, p) => res2 * num(60) + num(p), num(0));
      return sign === "-" ? num(-1) * res : res;
    }
    function stringifySexagesimal(node2) {
      let { value } = node2;
      let num = (n) => n;
      if (typeof value === "bigint")
        num = (n) => BigInt(n);
      else if (isNaN(value) || !isFinite(value))
        return stringifyNumber.stringifyNumber(node2);
      let sign = "";
      if (value < 0) {
        sign = "-";
        value *= num(-1);
      }
      const _60 = num(60);
      const parts = [value % _60];
      if (value < 60) {
        parts.unshift(0);
      } else {
        value = (value - parts[0]) / _60;
        parts.unshift(value % _60);
        if (value >= 60) {
          value = (value - parts[0]) / _60;
          parts.unshift(value);
        }
      }
      return sign + parts.map((n) => String(n).padStart(2, "0")).join(":").replace(/000000\d*$/, "");
    }
    var intTime = {
      identify: (value) => typeof value === "bigint" || Number.isInteger(value),
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
      resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
      stringify: stringifySexagesimal
    };
    var floatTime = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
      resolve: (str) => parseSexagesimal(str, false),
      stringify: stringifySexagesimal
    };
    var timestamp = {
      identify: (value) => value instanceof Date,
      default: true,
      tag: "tag:yaml.org,2002:timestamp",
      // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
      // may be omitted altogether, resulting in a date format. In such a case, the time part is
      // assumed to be 00:00:00Z (start of day, UTC).
      test: RegExp("^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:t|T|[ \\t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$"),
      resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
          throw new Error("!!timestamp expects a date, starting with yyyy-mm-dd");
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + "00").substr(1, 3)) : 0;
        let date2 = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== "Z") {
          let d = parseSexagesimal(tz, false);
          if (Math.abs(d) < 30)
            d *= 60;
          date2 -= 6e4 * d;
        }
        return new Date(date2);
      },
      stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, "") ?? ""
    };
    exports.floatTime = floatTime;
    exports.intTime = intTime;
    exports.timestamp = timestamp;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/schema.js
var require_schema3 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null3 = require_null();
    var seq = require_seq();
    var string3 = require_string();
    var binary = require_binary();
    var bool = require_bool2();
    var float = require_float2();
    var int2 = require_int2();
    var merge2 = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var set = require_set();
    var timestamp = require_timestamp();
    var schema = [
      map.map,
      seq.seq,
      string3.string,
      _null3.nullTag,
      bool.trueTag,
      bool.falseTag,
      int2.intBin,
      int2.intOct,
      int2.int,
      int2.intHex,
      float.floatNaN,
      float.floatExp,
      float.float,
      binary.binary,
      merge2.merge,
      omap.omap,
      pairs.pairs,
      set.set,
      timestamp.intTime,
      timestamp.floatTime,
      timestamp.timestamp
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/tags.js
var require_tags = __commonJS({
  "node_modules/yaml/dist/schema/tags.js"(exports) {
    "use strict";
    var map = require_map();
    var _null3 = require_null();
    var seq = require_seq();
    var string3 = require_string();
    var bool = require_bool();
    var float = require_float();
    var int2 = require_int();
    var schema = require_schema();
    var schema$1 = require_schema2();
    var binary = require_binary();
    var merge2 = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var schema$2 = require_schema3();
    var set = require_set();
    var timestamp = require_timestamp();
    var schemas = /* @__PURE__ */ new Map([
      ["core", schema.schema],
      ["failsafe", [map.map, seq.seq, string3.string]],
      ["json", schema$1.schema],
      ["yaml11", schema$2.schema],
      ["yaml-1.1", schema$2.schema]
    ]);
    var tagsByName = {
      binary: binary.binary,
      bool: bool.boolTag,
      float: float.float,
      floatExp: float.floatExp,
      floatNaN: float.floatNaN,
      floatTime: timestamp.floatTime,
      int: int2.int,
      intHex: int2.intHex,
      intOct: int2.intOct,
      intTime: timestamp.intTime,
      map: map.map,
      merge: merge2.merge,
      null: _null3.nullTag,
      omap: omap.omap,
      pairs: pairs.pairs,
      seq: seq.seq,
      set: set.set,
      timestamp: timestamp.timestamp
    };
    var coreKnownTags = {
      "tag:yaml.org,2002:binary": binary.binary,
      "tag:yaml.org,2002:merge": merge2.merge,
      "tag:yaml.org,2002:omap": omap.omap,
      "tag:yaml.org,2002:pairs": pairs.pairs,
      "tag:yaml.org,2002:set": set.set,
      "tag:yaml.org,2002:timestamp": timestamp.timestamp
    };
    function getTags(customTags, schemaName, addMergeTag) {
      const schemaTags = schemas.get(schemaName);
      if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge2.merge) ? schemaTags.concat(merge2.merge) : schemaTags.slice();
      }
      let tags = schemaTags;
      if (!tags) {
        if (Array.isArray(customTags))
          tags = [];
        else {
          const keys = Array.from(schemas.keys()).filter((key) => key !== "yaml11").map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
      }
      if (Array.isArray(customTags)) {
        for (const tag of customTags)
          tags = tags.concat(tag);
      } else if (typeof customTags === "function") {
        tags = customTags(tags.slice());
      }
      if (addMergeTag)
        tags = tags.concat(merge2.merge);
      return tags.reduce((tags2, tag) => {
        const tagObj = typeof tag === "string" ? tagsByName[tag] : tag;
        if (!tagObj) {
          const tagName = JSON.stringify(tag);
          const keys = Object.keys(tagsByName).map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags2.includes(tagObj))
          tags2.push(tagObj);
        return tags2;
      }, []);
    }
    exports.coreKnownTags = coreKnownTags;
    exports.getTags = getTags;
  }
});

// node_modules/yaml/dist/schema/Schema.js
var require_Schema = __commonJS({
  "node_modules/yaml/dist/schema/Schema.js"(exports) {
    "use strict";
    var identity = require_identity();
    var map = require_map();
    var seq = require_seq();
    var string3 = require_string();
    var tags = require_tags();
    var sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    var Schema = class _Schema {
      constructor({ compat, customTags, merge: merge2, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat) ? tags.getTags(compat, "compat") : compat ? tags.getTags(null, compat) : null;
        this.name = typeof schema === "string" && schema || "core";
        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
        this.tags = tags.getTags(customTags, this.name, merge2);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, identity.MAP, { value: map.map });
        Object.defineProperty(this, identity.SCALAR, { value: string3.string });
        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
        this.sortMapEntries = typeof sortMapEntries === "function" ? sortMapEntries : sortMapEntries === true ? sortMapEntriesByKey : null;
      }
      clone() {
        const copy = Object.create(_Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
      }
    };
    exports.Schema = Schema;
  }
});

// node_modules/yaml/dist/stringify/stringifyDocument.js
var require_stringifyDocument = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyDocument.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyDocument(doc, options) {
      const lines = [];
      let hasDirectives = options.directives === true;
      if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
          lines.push(dir);
          hasDirectives = true;
        } else if (doc.directives.docStart)
          hasDirectives = true;
      }
      if (hasDirectives)
        lines.push("---");
      const ctx = stringify.createStringifyContext(doc, options);
      const { commentString } = ctx.options;
      if (doc.commentBefore) {
        if (lines.length !== 1)
          lines.unshift("");
        const cs = commentString(doc.commentBefore);
        lines.unshift(stringifyComment.indentComment(cs, ""));
      }
      let chompKeep = false;
      let contentComment = null;
      if (doc.contents) {
        if (identity.isNode(doc.contents)) {
          if (doc.contents.spaceBefore && hasDirectives)
            lines.push("");
          if (doc.contents.commentBefore) {
            const cs = commentString(doc.contents.commentBefore);
            lines.push(stringifyComment.indentComment(cs, ""));
          }
          ctx.forceBlockIndent = !!doc.comment;
          contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? void 0 : () => chompKeep = true;
        let body = stringify.stringify(doc.contents, ctx, () => contentComment = null, onChompKeep);
        if (contentComment)
          body += stringifyComment.lineComment(body, "", commentString(contentComment));
        if ((body[0] === "|" || body[0] === ">") && lines[lines.length - 1] === "---") {
          lines[lines.length - 1] = `--- ${body}`;
        } else
          lines.push(body);
      } else {
        lines.push(stringify.stringify(doc.contents, ctx));
      }
      if (doc.directives?.docEnd) {
        if (doc.comment) {
          const cs = commentString(doc.comment);
          if (cs.includes("\n")) {
            lines.push("...");
            lines.push(stringifyComment.indentComment(cs, ""));
          } else {
            lines.push(`... ${cs}`);
          }
        } else {
          lines.push("...");
        }
      } else {
        let dc = doc.comment;
        if (dc && chompKeep)
          dc = dc.replace(/^\n+/, "");
        if (dc) {
          if ((!chompKeep || contentComment) && lines[lines.length - 1] !== "")
            lines.push("");
          lines.push(stringifyComment.indentComment(commentString(dc), ""));
        }
      }
      return lines.join("\n") + "\n";
    }
    exports.stringifyDocument = stringifyDocument;
  }
});

// node_modules/yaml/dist/doc/Document.js
var require_Document = __commonJS({
  "node_modules/yaml/dist/doc/Document.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var toJS = require_toJS();
    var Schema = require_Schema();
    var stringifyDocument = require_stringifyDocument();
    var anchors = require_anchors();
    var applyReviver = require_applyReviver();
    var createNode = require_createNode();
    var directives = require_directives();
    var Document = class _Document {
      constructor(value, replacer, options) {
        this.commentBefore = null;
        this.comment = null;
        this.errors = [];
        this.warnings = [];
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
        let _replacer = null;
        if (typeof replacer === "function" || Array.isArray(replacer)) {
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const opt = Object.assign({
          intAsBigInt: false,
          keepSourceTokens: false,
          logLevel: "warn",
          prettyErrors: true,
          strict: true,
          stringKeys: false,
          uniqueKeys: true,
          version: "1.2"
        }, options);
        this.options = opt;
        let { version: version2 } = opt;
        if (options?._directives) {
          this.directives = options._directives.atDocument();
          if (this.directives.yaml.explicit)
            version2 = this.directives.yaml.version;
        } else
          this.directives = new directives.Directives({ version: version2 });
        this.setSchema(version2, options);
        this.contents = value === void 0 ? null : this.createNode(value, _replacer, options);
      }
      /**
       * Create a deep copy of this Document and its contents.
       *
       * Custom Node values that inherit from `Object` still refer to their original instances.
       */
      clone() {
        const copy = Object.create(_Document.prototype, {
          [identity.NODE_TYPE]: { value: identity.DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
          copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        copy.contents = identity.isNode(this.contents) ? this.contents.clone(copy.schema) : this.contents;
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** Adds a value to the document. */
      add(value) {
        if (assertCollection(this.contents))
          this.contents.add(value);
      }
      /** Adds a value to the document. */
      addIn(path, value) {
        if (assertCollection(this.contents))
          this.contents.addIn(path, value);
      }
      /**
       * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
       *
       * If `node` already has an anchor, `name` is ignored.
       * Otherwise, the `node.anchor` value will be set to `name`,
       * or if an anchor with that name is already present in the document,
       * `name` will be used as a prefix for a new unique anchor.
       * If `name` is undefined, the generated anchor will use 'a' as a prefix.
       */
      createAlias(node2, name) {
        if (!node2.anchor) {
          const prev = anchors.anchorNames(this);
          node2.anchor = // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          !name || prev.has(name) ? anchors.findNewAnchor(name || "a", prev) : name;
        }
        return new Alias.Alias(node2.anchor);
      }
      createNode(value, replacer, options) {
        let _replacer = void 0;
        if (typeof replacer === "function") {
          value = replacer.call({ "": value }, "", value);
          _replacer = replacer;
        } else if (Array.isArray(replacer)) {
          const keyToStr = (v) => typeof v === "number" || v instanceof String || v instanceof Number;
          const asStr = replacer.filter(keyToStr).map(String);
          if (asStr.length > 0)
            replacer = replacer.concat(asStr);
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(
          this,
          // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          anchorPrefix || "a"
        );
        const ctx = {
          aliasDuplicateObjects: aliasDuplicateObjects ?? true,
          keepUndefined: keepUndefined ?? false,
          onAnchor,
          onTagObj,
          replacer: _replacer,
          schema: this.schema,
          sourceObjects
        };
        const node2 = createNode.createNode(value, tag, ctx);
        if (flow && identity.isCollection(node2))
          node2.flow = true;
        setAnchors();
        return node2;
      }
      /**
       * Convert a key and a value into a `Pair` using the current schema,
       * recursively wrapping all values as `Scalar` or `Collection` nodes.
       */
      createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair.Pair(k, v);
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path) {
        if (Collection.isEmptyPath(path)) {
          if (this.contents == null)
            return false;
          this.contents = null;
          return true;
        }
        return assertCollection(this.contents) ? this.contents.deleteIn(path) : false;
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      get(key, keepScalar) {
        return identity.isCollection(this.contents) ? this.contents.get(key, keepScalar) : void 0;
      }
      /**
       * Returns item at `path`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path, keepScalar) {
        if (Collection.isEmptyPath(path))
          return !keepScalar && identity.isScalar(this.contents) ? this.contents.value : this.contents;
        return identity.isCollection(this.contents) ? this.contents.getIn(path, keepScalar) : void 0;
      }
      /**
       * Checks if the document includes a value with the key `key`.
       */
      has(key) {
        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
      }
      /**
       * Checks if the document includes a value at `path`.
       */
      hasIn(path) {
        if (Collection.isEmptyPath(path))
          return this.contents !== void 0;
        return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      set(key, value) {
        if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, [key], value);
        } else if (assertCollection(this.contents)) {
          this.contents.set(key, value);
        }
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path, value) {
        if (Collection.isEmptyPath(path)) {
          this.contents = value;
        } else if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
        } else if (assertCollection(this.contents)) {
          this.contents.setIn(path, value);
        }
      }
      /**
       * Change the YAML version and schema used by the document.
       * A `null` version disables support for directives, explicit tags, anchors, and aliases.
       * It also requires the `schema` option to be given as a `Schema` instance value.
       *
       * Overrides all previously set schema options.
       */
      setSchema(version2, options = {}) {
        if (typeof version2 === "number")
          version2 = String(version2);
        let opt;
        switch (version2) {
          case "1.1":
            if (this.directives)
              this.directives.yaml.version = "1.1";
            else
              this.directives = new directives.Directives({ version: "1.1" });
            opt = { resolveKnownTags: false, schema: "yaml-1.1" };
            break;
          case "1.2":
          case "next":
            if (this.directives)
              this.directives.yaml.version = version2;
            else
              this.directives = new directives.Directives({ version: version2 });
            opt = { resolveKnownTags: true, schema: "core" };
            break;
          case null:
            if (this.directives)
              delete this.directives;
            opt = null;
            break;
          default: {
            const sv = JSON.stringify(version2);
            throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
          }
        }
        if (options.schema instanceof Object)
          this.schema = options.schema;
        else if (opt)
          this.schema = new Schema.Schema(Object.assign(opt, options));
        else
          throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
      }
      // json & jsonArg are only used from toJSON()
      toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc: this,
          keep: !json,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this.contents, jsonArg ?? "", ctx);
        if (typeof onAnchor === "function")
          for (const { count, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
      /**
       * A JSON representation of the document `contents`.
       *
       * @param jsonArg Used by `JSON.stringify` to indicate the array index or
       *   property name.
       */
      toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
      }
      /** A YAML representation of the document. */
      toString(options = {}) {
        if (this.errors.length > 0)
          throw new Error("Document with errors cannot be stringified");
        if ("indent" in options && (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
          const s = JSON.stringify(options.indent);
          throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument.stringifyDocument(this, options);
      }
    };
    function assertCollection(contents) {
      if (identity.isCollection(contents))
        return true;
      throw new Error("Expected a YAML collection as document contents");
    }
    exports.Document = Document;
  }
});

// node_modules/yaml/dist/errors.js
var require_errors = __commonJS({
  "node_modules/yaml/dist/errors.js"(exports) {
    "use strict";
    var YAMLError = class extends Error {
      constructor(name, pos, code2, message) {
        super();
        this.name = name;
        this.code = code2;
        this.message = message;
        this.pos = pos;
      }
    };
    var YAMLParseError = class extends YAMLError {
      constructor(pos, code2, message) {
        super("YAMLParseError", pos, code2, message);
      }
    };
    var YAMLWarning = class extends YAMLError {
      constructor(pos, code2, message) {
        super("YAMLWarning", pos, code2, message);
      }
    };
    var prettifyError = (src, lc) => (error2) => {
      if (error2.pos[0] === -1)
        return;
      error2.linePos = error2.pos.map((pos) => lc.linePos(pos));
      const { line, col } = error2.linePos[0];
      error2.message += ` at line ${line}, column ${col}`;
      let ci = col - 1;
      let lineStr = src.substring(lc.lineStarts[line - 1], lc.lineStarts[line]).replace(/[\n\r]+$/, "");
      if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = "\u2026" + lineStr.substring(trimStart);
        ci -= trimStart - 1;
      }
      if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + "\u2026";
      if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
          prev = prev.substring(0, 79) + "\u2026\n";
        lineStr = prev + lineStr;
      }
      if (/[^ ]/.test(lineStr)) {
        let count = 1;
        const end = error2.linePos[1];
        if (end?.line === line && end.col > col) {
          count = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = " ".repeat(ci) + "^".repeat(count);
        error2.message += `:

${lineStr}
${pointer}
`;
      }
    };
    exports.YAMLError = YAMLError;
    exports.YAMLParseError = YAMLParseError;
    exports.YAMLWarning = YAMLWarning;
    exports.prettifyError = prettifyError;
  }
});

// node_modules/yaml/dist/compose/resolve-props.js
var require_resolve_props = __commonJS({
  "node_modules/yaml/dist/compose/resolve-props.js"(exports) {
    "use strict";
    function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
      let spaceBefore = false;
      let atNewline = startOnNewline;
      let hasSpace = startOnNewline;
      let comment = "";
      let commentSep = "";
      let hasNewline = false;
      let reqSpace = false;
      let tab = null;
      let anchor2 = null;
      let tag = null;
      let newlineAfterProp = null;
      let comma = null;
      let found = null;
      let start = null;
      for (const token of tokens) {
        if (reqSpace) {
          if (token.type !== "space" && token.type !== "newline" && token.type !== "comma")
            onError(token.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
          reqSpace = false;
        }
        if (tab) {
          if (atNewline && token.type !== "comment" && token.type !== "newline") {
            onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
          }
          tab = null;
        }
        switch (token.type) {
          case "space":
            if (!flow && (indicator !== "doc-start" || next?.type !== "flow-collection") && token.source.includes("	")) {
              tab = token;
            }
            hasSpace = true;
            break;
          case "comment": {
            if (!hasSpace)
              onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
            const cb = token.source.substring(1) || " ";
            if (!comment)
              comment = cb;
            else
              comment += commentSep + cb;
            commentSep = "";
            atNewline = false;
            break;
          }
          case "newline":
            if (atNewline) {
              if (comment)
                comment += token.source;
              else if (!found || indicator !== "seq-item-ind")
                spaceBefore = true;
            } else
              commentSep += token.source;
            atNewline = true;
            hasNewline = true;
            if (anchor2 || tag)
              newlineAfterProp = token;
            hasSpace = true;
            break;
          case "anchor":
            if (anchor2)
              onError(token, "MULTIPLE_ANCHORS", "A node can have at most one anchor");
            if (token.source.endsWith(":"))
              onError(token.offset + token.source.length - 1, "BAD_ALIAS", "Anchor ending in : is ambiguous", true);
            anchor2 = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          case "tag": {
            if (tag)
              onError(token, "MULTIPLE_TAGS", "A node can have at most one tag");
            tag = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          }
          case indicator:
            if (anchor2 || tag)
              onError(token, "BAD_PROP_ORDER", `Anchors and tags must be after the ${token.source} indicator`);
            if (found)
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.source} in ${flow ?? "collection"}`);
            found = token;
            atNewline = indicator === "seq-item-ind" || indicator === "explicit-key-ind";
            hasSpace = false;
            break;
          case "comma":
            if (flow) {
              if (comma)
                onError(token, "UNEXPECTED_TOKEN", `Unexpected , in ${flow}`);
              comma = token;
              atNewline = false;
              hasSpace = false;
              break;
            }
          // else fallthrough
          default:
            onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.type} token`);
            atNewline = false;
            hasSpace = false;
        }
      }
      const last = tokens[tokens.length - 1];
      const end = last ? last.offset + last.source.length : offset;
      if (reqSpace && next && next.type !== "space" && next.type !== "newline" && next.type !== "comma" && (next.type !== "scalar" || next.source !== "")) {
        onError(next.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
      }
      if (tab && (atNewline && tab.indent <= parentIndent || next?.type === "block-map" || next?.type === "block-seq"))
        onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
      return {
        comma,
        found,
        spaceBefore,
        comment,
        hasNewline,
        anchor: anchor2,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
      };
    }
    exports.resolveProps = resolveProps;
  }
});

// node_modules/yaml/dist/compose/util-contains-newline.js
var require_util_contains_newline = __commonJS({
  "node_modules/yaml/dist/compose/util-contains-newline.js"(exports) {
    "use strict";
    function containsNewline(key) {
      if (!key)
        return null;
      switch (key.type) {
        case "alias":
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          if (key.source.includes("\n"))
            return true;
          if (key.end) {
            for (const st of key.end)
              if (st.type === "newline")
                return true;
          }
          return false;
        case "flow-collection":
          for (const it of key.items) {
            for (const st of it.start)
              if (st.type === "newline")
                return true;
            if (it.sep) {
              for (const st of it.sep)
                if (st.type === "newline")
                  return true;
            }
            if (containsNewline(it.key) || containsNewline(it.value))
              return true;
          }
          return false;
        default:
          return true;
      }
    }
    exports.containsNewline = containsNewline;
  }
});

// node_modules/yaml/dist/compose/util-flow-indent-check.js
var require_util_flow_indent_check = __commonJS({
  "node_modules/yaml/dist/compose/util-flow-indent-check.js"(exports) {
    "use strict";
    var utilContainsNewline = require_util_contains_newline();
    function flowIndentCheck(indent, fc, onError) {
      if (fc?.type === "flow-collection") {
        const end = fc.end[0];
        if (end.indent === indent && (end.source === "]" || end.source === "}") && utilContainsNewline.containsNewline(fc)) {
          const msg = "Flow end indicator should be more indented than parent";
          onError(end, "BAD_INDENT", msg, true);
        }
      }
    }
    exports.flowIndentCheck = flowIndentCheck;
  }
});

// node_modules/yaml/dist/compose/util-map-includes.js
var require_util_map_includes = __commonJS({
  "node_modules/yaml/dist/compose/util-map-includes.js"(exports) {
    "use strict";
    var identity = require_identity();
    function mapIncludes(ctx, items, search) {
      const { uniqueKeys } = ctx.options;
      if (uniqueKeys === false)
        return false;
      const isEqual = typeof uniqueKeys === "function" ? uniqueKeys : (a, b) => a === b || identity.isScalar(a) && identity.isScalar(b) && a.value === b.value;
      return items.some((pair) => isEqual(pair.key, search));
    }
    exports.mapIncludes = mapIncludes;
  }
});

// node_modules/yaml/dist/compose/resolve-block-map.js
var require_resolve_block_map = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-map.js"(exports) {
    "use strict";
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    var utilMapIncludes = require_util_map_includes();
    var startColMsg = "All mapping items must start at the same column";
    function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
      const map = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      let offset = bm.offset;
      let commentEnd = null;
      for (const collItem of bm.items) {
        const { start, key, sep: sep8, value } = collItem;
        const keyProps = resolveProps.resolveProps(start, {
          indicator: "explicit-key-ind",
          next: key ?? sep8?.[0],
          offset,
          onError,
          parentIndent: bm.indent,
          startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
          if (key) {
            if (key.type === "block-seq")
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key");
            else if ("indent" in key && key.indent !== bm.indent)
              onError(offset, "BAD_INDENT", startColMsg);
          }
          if (!keyProps.anchor && !keyProps.tag && !sep8) {
            commentEnd = keyProps.end;
            if (keyProps.comment) {
              if (map.comment)
                map.comment += "\n" + keyProps.comment;
              else
                map.comment = keyProps.comment;
            }
            continue;
          }
          if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
            onError(key ?? start[start.length - 1], "MULTILINE_IMPLICIT_KEY", "Implicit keys need to be on a single line");
          }
        } else if (keyProps.found?.indent !== bm.indent) {
          onError(offset, "BAD_INDENT", startColMsg);
        }
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode = key ? composeNode(ctx, key, keyProps, onError) : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
          onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
        const valueProps = resolveProps.resolveProps(sep8 ?? [], {
          indicator: "map-value-ind",
          next: value,
          offset: keyNode.range[2],
          onError,
          parentIndent: bm.indent,
          startOnNewline: !key || key.type === "block-scalar"
        });
        offset = valueProps.end;
        if (valueProps.found) {
          if (implicitKey) {
            if (value?.type === "block-map" && !valueProps.hasNewline)
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "Nested mappings are not allowed in compact mappings");
            if (ctx.options.strict && keyProps.start < valueProps.found.offset - 1024)
              onError(keyNode.range, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit block mapping key");
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : composeEmptyNode(ctx, offset, sep8, null, valueProps, onError);
          if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
          offset = valueNode.range[2];
          const pair = new Pair.Pair(keyNode, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        } else {
          if (implicitKey)
            onError(keyNode.range, "MISSING_CHAR", "Implicit map keys need to be followed by map values");
          if (valueProps.comment) {
            if (keyNode.comment)
              keyNode.comment += "\n" + valueProps.comment;
            else
              keyNode.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        }
      }
      if (commentEnd && commentEnd < offset)
        onError(commentEnd, "IMPOSSIBLE", "Map comment with trailing content");
      map.range = [bm.offset, offset, commentEnd ?? offset];
      return map;
    }
    exports.resolveBlockMap = resolveBlockMap;
  }
});

// node_modules/yaml/dist/compose/resolve-block-seq.js
var require_resolve_block_seq = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-seq.js"(exports) {
    "use strict";
    var YAMLSeq = require_YAMLSeq();
    var resolveProps = require_resolve_props();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
      const seq = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = bs.offset;
      let commentEnd = null;
      for (const { start, value } of bs.items) {
        const props = resolveProps.resolveProps(start, {
          indicator: "seq-item-ind",
          next: value,
          offset,
          onError,
          parentIndent: bs.indent,
          startOnNewline: true
        });
        if (!props.found) {
          if (props.anchor || props.tag || value) {
            if (value?.type === "block-seq")
              onError(props.end, "BAD_INDENT", "All sequence items must start at the same column");
            else
              onError(offset, "MISSING_CHAR", "Sequence item without - indicator");
          } else {
            commentEnd = props.end;
            if (props.comment)
              seq.comment = props.comment;
            continue;
          }
        }
        const node2 = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
        offset = node2.range[2];
        seq.items.push(node2);
      }
      seq.range = [bs.offset, offset, commentEnd ?? offset];
      return seq;
    }
    exports.resolveBlockSeq = resolveBlockSeq;
  }
});

// node_modules/yaml/dist/compose/resolve-end.js
var require_resolve_end = __commonJS({
  "node_modules/yaml/dist/compose/resolve-end.js"(exports) {
    "use strict";
    function resolveEnd(end, offset, reqSpace, onError) {
      let comment = "";
      if (end) {
        let hasSpace = false;
        let sep8 = "";
        for (const token of end) {
          const { source, type } = token;
          switch (type) {
            case "space":
              hasSpace = true;
              break;
            case "comment": {
              if (reqSpace && !hasSpace)
                onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
              const cb = source.substring(1) || " ";
              if (!comment)
                comment = cb;
              else
                comment += sep8 + cb;
              sep8 = "";
              break;
            }
            case "newline":
              if (comment)
                sep8 += source;
              hasSpace = true;
              break;
            default:
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${type} at node end`);
          }
          offset += source.length;
        }
      }
      return { comment, offset };
    }
    exports.resolveEnd = resolveEnd;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-collection.js
var require_resolve_flow_collection = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilMapIncludes = require_util_map_includes();
    var blockMsg = "Block collections are not allowed within flow collections";
    var isBlock = (token) => token && (token.type === "block-map" || token.type === "block-seq");
    function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
      const isMap = fc.start.source === "{";
      const fcName = isMap ? "flow map" : "flow sequence";
      const NodeClass = tag?.nodeClass ?? (isMap ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq);
      const coll = new NodeClass(ctx.schema);
      coll.flow = true;
      const atRoot = ctx.atRoot;
      if (atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = fc.offset + fc.start.source.length;
      for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep: sep8, value } = collItem;
        const props = resolveProps.resolveProps(start, {
          flow: fcName,
          indicator: "explicit-key-ind",
          next: key ?? sep8?.[0],
          offset,
          onError,
          parentIndent: fc.indent,
          startOnNewline: false
        });
        if (!props.found) {
          if (!props.anchor && !props.tag && !sep8 && !value) {
            if (i === 0 && props.comma)
              onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
            else if (i < fc.items.length - 1)
              onError(props.start, "UNEXPECTED_TOKEN", `Unexpected empty item in ${fcName}`);
            if (props.comment) {
              if (coll.comment)
                coll.comment += "\n" + props.comment;
              else
                coll.comment = props.comment;
            }
            offset = props.end;
            continue;
          }
          if (!isMap && ctx.options.strict && utilContainsNewline.containsNewline(key))
            onError(
              key,
              // checked by containsNewline()
              "MULTILINE_IMPLICIT_KEY",
              "Implicit keys of flow sequence pairs need to be on a single line"
            );
        }
        if (i === 0) {
          if (props.comma)
            onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
        } else {
          if (!props.comma)
            onError(props.start, "MISSING_CHAR", `Missing , between ${fcName} items`);
          if (props.comment) {
            let prevItemComment = "";
            loop: for (const st of start) {
              switch (st.type) {
                case "comma":
                case "space":
                  break;
                case "comment":
                  prevItemComment = st.source.substring(1);
                  break loop;
                default:
                  break loop;
              }
            }
            if (prevItemComment) {
              let prev = coll.items[coll.items.length - 1];
              if (identity.isPair(prev))
                prev = prev.value ?? prev.key;
              if (prev.comment)
                prev.comment += "\n" + prevItemComment;
              else
                prev.comment = prevItemComment;
              props.comment = props.comment.substring(prevItemComment.length + 1);
            }
          }
        }
        if (!isMap && !sep8 && !props.found) {
          const valueNode = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, sep8, null, props, onError);
          coll.items.push(valueNode);
          offset = valueNode.range[2];
          if (isBlock(value))
            onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
        } else {
          ctx.atKey = true;
          const keyStart = props.end;
          const keyNode = key ? composeNode(ctx, key, props, onError) : composeEmptyNode(ctx, keyStart, start, null, props, onError);
          if (isBlock(key))
            onError(keyNode.range, "BLOCK_IN_FLOW", blockMsg);
          ctx.atKey = false;
          const valueProps = resolveProps.resolveProps(sep8 ?? [], {
            flow: fcName,
            indicator: "map-value-ind",
            next: value,
            offset: keyNode.range[2],
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
          });
          if (valueProps.found) {
            if (!isMap && !props.found && ctx.options.strict) {
              if (sep8)
                for (const st of sep8) {
                  if (st === valueProps.found)
                    break;
                  if (st.type === "newline") {
                    onError(st, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line");
                    break;
                  }
                }
              if (props.start < valueProps.found.offset - 1024)
                onError(valueProps.found, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key");
            }
          } else if (value) {
            if ("source" in value && value.source?.[0] === ":")
              onError(value, "MISSING_CHAR", `Missing space after : in ${fcName}`);
            else
              onError(valueProps.start, "MISSING_CHAR", `Missing , or : between ${fcName} items`);
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : valueProps.found ? composeEmptyNode(ctx, valueProps.end, sep8, null, valueProps, onError) : null;
          if (valueNode) {
            if (isBlock(value))
              onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
          } else if (valueProps.comment) {
            if (keyNode.comment)
              keyNode.comment += "\n" + valueProps.comment;
            else
              keyNode.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          if (isMap) {
            const map = coll;
            if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
              onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
            map.items.push(pair);
          } else {
            const map = new YAMLMap.YAMLMap(ctx.schema);
            map.flow = true;
            map.items.push(pair);
            const endRange = (valueNode ?? keyNode).range;
            map.range = [keyNode.range[0], endRange[1], endRange[2]];
            coll.items.push(map);
          }
          offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
      }
      const expectedEnd = isMap ? "}" : "]";
      const [ce, ...ee] = fc.end;
      let cePos = offset;
      if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
      else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot ? `${name} must end with a ${expectedEnd}` : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? "MISSING_CHAR" : "BAD_INDENT", msg);
        if (ce && ce.source.length !== 1)
          ee.unshift(ce);
      }
      if (ee.length > 0) {
        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
          if (coll.comment)
            coll.comment += "\n" + end.comment;
          else
            coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
      } else {
        coll.range = [fc.offset, cePos, cePos];
      }
      return coll;
    }
    exports.resolveFlowCollection = resolveFlowCollection;
  }
});

// node_modules/yaml/dist/compose/compose-collection.js
var require_compose_collection = __commonJS({
  "node_modules/yaml/dist/compose/compose-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveBlockMap = require_resolve_block_map();
    var resolveBlockSeq = require_resolve_block_seq();
    var resolveFlowCollection = require_resolve_flow_collection();
    function resolveCollection(CN, ctx, token, onError, tagName, tag) {
      const coll = token.type === "block-map" ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag) : token.type === "block-seq" ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag) : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
      const Coll = coll.constructor;
      if (tagName === "!" || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
      }
      if (tagName)
        coll.tag = tagName;
      return coll;
    }
    function composeCollection(CN, ctx, token, props, onError) {
      const tagToken = props.tag;
      const tagName = !tagToken ? null : ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg));
      if (token.type === "block-seq") {
        const { anchor: anchor2, newlineAfterProp: nl } = props;
        const lastProp = anchor2 && tagToken ? anchor2.offset > tagToken.offset ? anchor2 : tagToken : anchor2 ?? tagToken;
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
          const message = "Missing newline after block sequence props";
          onError(lastProp, "MISSING_CHAR", message);
        }
      }
      const expType = token.type === "block-map" ? "map" : token.type === "block-seq" ? "seq" : token.start.source === "{" ? "map" : "seq";
      if (!tagToken || !tagName || tagName === "!" || tagName === YAMLMap.YAMLMap.tagName && expType === "map" || tagName === YAMLSeq.YAMLSeq.tagName && expType === "seq") {
        return resolveCollection(CN, ctx, token, onError, tagName);
      }
      let tag = ctx.schema.tags.find((t) => t.tag === tagName && t.collection === expType);
      if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
          ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
          tag = kt;
        } else {
          if (kt) {
            onError(tagToken, "BAD_COLLECTION_TYPE", `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? "scalar"}`, true);
          } else {
            onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, true);
          }
          return resolveCollection(CN, ctx, token, onError, tagName);
        }
      }
      const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
      const res = tag.resolve?.(coll, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg), ctx.options) ?? coll;
      const node2 = identity.isNode(res) ? res : new Scalar.Scalar(res);
      node2.range = coll.range;
      node2.tag = tagName;
      if (tag?.format)
        node2.format = tag.format;
      return node2;
    }
    exports.composeCollection = composeCollection;
  }
});

// node_modules/yaml/dist/compose/resolve-block-scalar.js
var require_resolve_block_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function resolveBlockScalar(ctx, scalar, onError) {
      const start = scalar.offset;
      const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
      if (!header)
        return { value: "", type: null, comment: "", range: [start, start, start] };
      const type = header.mode === ">" ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
      const lines = scalar.source ? splitLines(scalar.source) : [];
      let chompStart = lines.length;
      for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === "" || content === "\r")
          chompStart = i;
        else
          break;
      }
      if (chompStart === 0) {
        const value2 = header.chomp === "+" && lines.length > 0 ? "\n".repeat(Math.max(1, lines.length - 1)) : "";
        let end2 = start + header.length;
        if (scalar.source)
          end2 += scalar.source.length;
        return { value: value2, type, comment: header.comment, range: [start, end2, end2] };
      }
      let trimIndent = scalar.indent + header.indent;
      let offset = scalar.offset + header.length;
      let contentStart = 0;
      for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === "" || content === "\r") {
          if (header.indent === 0 && indent.length > trimIndent)
            trimIndent = indent.length;
        } else {
          if (indent.length < trimIndent) {
            const message = "Block scalars with more-indented leading empty lines must use an explicit indentation indicator";
            onError(offset + indent.length, "MISSING_CHAR", message);
          }
          if (header.indent === 0)
            trimIndent = indent.length;
          contentStart = i;
          if (trimIndent === 0 && !ctx.atRoot) {
            const message = "Block scalar values in collections must be indented";
            onError(offset, "BAD_INDENT", message);
          }
          break;
        }
        offset += indent.length + content.length + 1;
      }
      for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
          chompStart = i + 1;
      }
      let value = "";
      let sep8 = "";
      let prevMoreIndented = false;
      for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + "\n";
      for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === "\r";
        if (crlf)
          content = content.slice(0, -1);
        if (content && indent.length < trimIndent) {
          const src = header.indent ? "explicit indentation indicator" : "first line";
          const message = `Block scalar lines must not be less indented than their ${src}`;
          onError(offset - content.length - (crlf ? 2 : 1), "BAD_INDENT", message);
          indent = "";
        }
        if (type === Scalar.Scalar.BLOCK_LITERAL) {
          value += sep8 + indent.slice(trimIndent) + content;
          sep8 = "\n";
        } else if (indent.length > trimIndent || content[0] === "	") {
          if (sep8 === " ")
            sep8 = "\n";
          else if (!prevMoreIndented && sep8 === "\n")
            sep8 = "\n\n";
          value += sep8 + indent.slice(trimIndent) + content;
          sep8 = "\n";
          prevMoreIndented = true;
        } else if (content === "") {
          if (sep8 === "\n")
            value += "\n";
          else
            sep8 = "\n";
        } else {
          value += sep8 + content;
          sep8 = " ";
          prevMoreIndented = false;
        }
      }
      switch (header.chomp) {
        case "-":
          break;
        case "+":
          for (let i = chompStart; i < lines.length; ++i)
            value += "\n" + lines[i][0].slice(trimIndent);
          if (value[value.length - 1] !== "\n")
            value += "\n";
          break;
        default:
          value += "\n";
      }
      const end = start + header.length + scalar.source.length;
      return { value, type, comment: header.comment, range: [start, end, end] };
    }
    function parseBlockScalarHeader({ offset, props }, strict, onError) {
      if (props[0].type !== "block-scalar-header") {
        onError(props[0], "IMPOSSIBLE", "Block scalar header not found");
        return null;
      }
      const { source } = props[0];
      const mode = source[0];
      let indent = 0;
      let chomp = "";
      let error2 = -1;
      for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === "-" || ch === "+"))
          chomp = ch;
        else {
          const n = Number(ch);
          if (!indent && n)
            indent = n;
          else if (error2 === -1)
            error2 = offset + i;
        }
      }
      if (error2 !== -1)
        onError(error2, "UNEXPECTED_TOKEN", `Block scalar header includes extra characters: ${source}`);
      let hasSpace = false;
      let comment = "";
      let length = source.length;
      for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
          case "space":
            hasSpace = true;
          // fallthrough
          case "newline":
            length += token.source.length;
            break;
          case "comment":
            if (strict && !hasSpace) {
              const message = "Comments must be separated from other tokens by white space characters";
              onError(token, "MISSING_CHAR", message);
            }
            length += token.source.length;
            comment = token.source.substring(1);
            break;
          case "error":
            onError(token, "UNEXPECTED_TOKEN", token.message);
            length += token.source.length;
            break;
          /* istanbul ignore next should not happen */
          default: {
            const message = `Unexpected token in block scalar header: ${token.type}`;
            onError(token, "UNEXPECTED_TOKEN", message);
            const ts = token.source;
            if (ts && typeof ts === "string")
              length += ts.length;
          }
        }
      }
      return { mode, indent, chomp, comment, length };
    }
    function splitLines(source) {
      const split = source.split(/\n( *)/);
      const first = split[0];
      const m = first.match(/^( *)/);
      const line0 = m?.[1] ? [m[1], first.slice(m[1].length)] : ["", first];
      const lines = [line0];
      for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
      return lines;
    }
    exports.resolveBlockScalar = resolveBlockScalar;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-scalar.js
var require_resolve_flow_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var resolveEnd = require_resolve_end();
    function resolveFlowScalar(scalar, strict, onError) {
      const { offset, type, source, end } = scalar;
      let _type;
      let value;
      const _onError = (rel, code2, msg) => onError(offset + rel, code2, msg);
      switch (type) {
        case "scalar":
          _type = Scalar.Scalar.PLAIN;
          value = plainValue(source, _onError);
          break;
        case "single-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_SINGLE;
          value = singleQuotedValue(source, _onError);
          break;
        case "double-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_DOUBLE;
          value = doubleQuotedValue(source, _onError);
          break;
        /* istanbul ignore next should not happen */
        default:
          onError(scalar, "UNEXPECTED_TOKEN", `Expected a flow scalar value, but found: ${type}`);
          return {
            value: "",
            type: null,
            comment: "",
            range: [offset, offset + source.length, offset + source.length]
          };
      }
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
      return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
      };
    }
    function plainValue(source, onError) {
      let badChar = "";
      switch (source[0]) {
        /* istanbul ignore next should not happen */
        case "	":
          badChar = "a tab character";
          break;
        case ",":
          badChar = "flow indicator character ,";
          break;
        case "%":
          badChar = "directive indicator character %";
          break;
        case "|":
        case ">": {
          badChar = `block scalar indicator ${source[0]}`;
          break;
        }
        case "@":
        case "`": {
          badChar = `reserved character ${source[0]}`;
          break;
        }
      }
      if (badChar)
        onError(0, "BAD_SCALAR_START", `Plain value cannot start with ${badChar}`);
      return unfoldLines(source);
    }
    function singleQuotedValue(source, onError) {
      if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, "MISSING_CHAR", "Missing closing 'quote");
      return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
    }
    function unfoldLines(source) {
      const line = /(.*?)\r?\n/sy;
      let match = line.exec(source);
      if (!match)
        return source;
      let trimEnd, trimBoth;
      try {
        trimEnd = new RegExp("(?<![ 	])[ 	]+$");
        trimBoth = new RegExp("^[ 	]+|(?<![ 	])[ 	]+$", "g");
      } catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
      }
      let res = match[1].replace(trimEnd, "");
      let sep8 = " ";
      let pos = line.lastIndex;
      while (match = line.exec(source)) {
        const lm = match[1].replace(trimBoth, "");
        if (lm === "") {
          if (sep8 === "\n")
            res += sep8;
          else
            sep8 = "\n";
        } else {
          res += sep8 + lm;
          sep8 = " ";
        }
        pos = line.lastIndex;
      }
      const last = /[ \t]*(.*)/sy;
      last.lastIndex = pos;
      match = last.exec(source);
      return res + sep8 + (match?.[1] ?? "");
    }
    function doubleQuotedValue(source, onError) {
      let res = "";
      for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === "\r" && source[i + 1] === "\n")
          continue;
        if (ch === "\n") {
          const { fold, offset } = foldNewline(source, i);
          res += fold;
          i = offset;
        } else if (ch === "\\") {
          let next = source[++i];
          const cc = escapeCodes[next];
          if (cc)
            res += cc;
          else if (next === "\n") {
            next = source[i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "\r" && source[i + 1] === "\n") {
            next = source[++i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "x" || next === "u" || next === "U") {
            const length = next === "x" ? 2 : next === "u" ? 4 : 8;
            res += parseCharCode(source, i + 1, length, onError);
            i += length;
          } else {
            const raw = source.substr(i - 1, 2);
            onError(i - 1, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
            res += raw;
          }
        } else if (ch === " " || ch === "	") {
          const wsStart = i;
          let next = source[i + 1];
          while (next === " " || next === "	")
            next = source[++i + 1];
          if (next !== "\n" && !(next === "\r" && source[i + 2] === "\n"))
            res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        } else {
          res += ch;
        }
      }
      if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, "MISSING_CHAR", 'Missing closing "quote');
      return res;
    }
    function foldNewline(source, offset) {
      let fold = "";
      let ch = source[offset + 1];
      while (ch === " " || ch === "	" || ch === "\n" || ch === "\r") {
        if (ch === "\r" && source[offset + 2] !== "\n")
          break;
        if (ch === "\n")
          fold += "\n";
        offset += 1;
        ch = source[offset + 1];
      }
      if (!fold)
        fold = " ";
      return { fold, offset };
    }
    var escapeCodes = {
      "0": "\0",
      // null character
      a: "\x07",
      // bell character
      b: "\b",
      // backspace
      e: "\x1B",
      // escape character
      f: "\f",
      // form feed
      n: "\n",
      // line feed
      r: "\r",
      // carriage return
      t: "	",
      // horizontal tab
      v: "\v",
      // vertical tab
      N: "\x85",
      // Unicode next line
      _: "\xA0",
      // Unicode non-breaking space
      L: "\u2028",
      // Unicode line separator
      P: "\u2029",
      // Unicode paragraph separator
      " ": " ",
      '"': '"',
      "/": "/",
      "\\": "\\",
      "	": "	"
    };
    function parseCharCode(source, offset, length, onError) {
      const cc = source.substr(offset, length);
      const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
      const code2 = ok ? parseInt(cc, 16) : NaN;
      try {
        return String.fromCodePoint(code2);
      } catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
        return raw;
      }
    }
    exports.resolveFlowScalar = resolveFlowScalar;
  }
});

// node_modules/yaml/dist/compose/compose-scalar.js
var require_compose_scalar = __commonJS({
  "node_modules/yaml/dist/compose/compose-scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    function composeScalar(ctx, token, tagToken, onError) {
      const { value, type, comment, range } = token.type === "block-scalar" ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError) : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
      const tagName = tagToken ? ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg)) : null;
      let tag;
      if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[identity.SCALAR];
      } else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
      else if (token.type === "scalar")
        tag = findScalarTagByTest(ctx, value, token, onError);
      else
        tag = ctx.schema[identity.SCALAR];
      let scalar;
      try {
        const res = tag.resolve(value, (msg) => onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg), ctx.options);
        scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
      } catch (error2) {
        const msg = error2 instanceof Error ? error2.message : String(error2);
        onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg);
        scalar = new Scalar.Scalar(value);
      }
      scalar.range = range;
      scalar.source = value;
      if (type)
        scalar.type = type;
      if (tagName)
        scalar.tag = tagName;
      if (tag.format)
        scalar.format = tag.format;
      if (comment)
        scalar.comment = comment;
      return scalar;
    }
    function findScalarTagByName(schema, value, tagName, tagToken, onError) {
      if (tagName === "!")
        return schema[identity.SCALAR];
      const matchWithTest = [];
      for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
          if (tag.default && tag.test)
            matchWithTest.push(tag);
          else
            return tag;
        }
      }
      for (const tag of matchWithTest)
        if (tag.test?.test(value))
          return tag;
      const kt = schema.knownTags[tagName];
      if (kt && !kt.collection) {
        schema.tags.push(Object.assign({}, kt, { default: false, test: void 0 }));
        return kt;
      }
      onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, tagName !== "tag:yaml.org,2002:str");
      return schema[identity.SCALAR];
    }
    function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
      const tag = schema.tags.find((tag2) => (tag2.default === true || atKey && tag2.default === "key") && tag2.test?.test(value)) || schema[identity.SCALAR];
      if (schema.compat) {
        const compat = schema.compat.find((tag2) => tag2.default && tag2.test?.test(value)) ?? schema[identity.SCALAR];
        if (tag.tag !== compat.tag) {
          const ts = directives.tagString(tag.tag);
          const cs = directives.tagString(compat.tag);
          const msg = `Value may be parsed as either ${ts} or ${cs}`;
          onError(token, "TAG_RESOLVE_FAILED", msg, true);
        }
      }
      return tag;
    }
    exports.composeScalar = composeScalar;
  }
});

// node_modules/yaml/dist/compose/util-empty-scalar-position.js
var require_util_empty_scalar_position = __commonJS({
  "node_modules/yaml/dist/compose/util-empty-scalar-position.js"(exports) {
    "use strict";
    function emptyScalarPosition(offset, before2, pos) {
      if (before2) {
        pos ?? (pos = before2.length);
        for (let i = pos - 1; i >= 0; --i) {
          let st = before2[i];
          switch (st.type) {
            case "space":
            case "comment":
            case "newline":
              offset -= st.source.length;
              continue;
          }
          st = before2[++i];
          while (st?.type === "space") {
            offset += st.source.length;
            st = before2[++i];
          }
          break;
        }
      }
      return offset;
    }
    exports.emptyScalarPosition = emptyScalarPosition;
  }
});

// node_modules/yaml/dist/compose/compose-node.js
var require_compose_node = __commonJS({
  "node_modules/yaml/dist/compose/compose-node.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var composeCollection = require_compose_collection();
    var composeScalar = require_compose_scalar();
    var resolveEnd = require_resolve_end();
    var utilEmptyScalarPosition = require_util_empty_scalar_position();
    var CN = { composeNode, composeEmptyNode };
    function composeNode(ctx, token, props, onError) {
      const atKey = ctx.atKey;
      const { spaceBefore, comment, anchor: anchor2, tag } = props;
      let node2;
      let isSrcToken = true;
      switch (token.type) {
        case "alias":
          node2 = composeAlias(ctx, token, onError);
          if (anchor2 || tag)
            onError(token, "ALIAS_PROPS", "An alias node must not specify any properties");
          break;
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "block-scalar":
          node2 = composeScalar.composeScalar(ctx, token, tag, onError);
          if (anchor2)
            node2.anchor = anchor2.source.substring(1);
          break;
        case "block-map":
        case "block-seq":
        case "flow-collection":
          try {
            node2 = composeCollection.composeCollection(CN, ctx, token, props, onError);
            if (anchor2)
              node2.anchor = anchor2.source.substring(1);
          } catch (error2) {
            const message = error2 instanceof Error ? error2.message : String(error2);
            onError(token, "RESOURCE_EXHAUSTION", message);
          }
          break;
        default: {
          const message = token.type === "error" ? token.message : `Unsupported token (type: ${token.type})`;
          onError(token, "UNEXPECTED_TOKEN", message);
          isSrcToken = false;
        }
      }
      node2 ?? (node2 = composeEmptyNode(ctx, token.offset, void 0, null, props, onError));
      if (anchor2 && node2.anchor === "")
        onError(anchor2, "BAD_ALIAS", "Anchor cannot be an empty string");
      if (atKey && ctx.options.stringKeys && (!identity.isScalar(node2) || typeof node2.value !== "string" || node2.tag && node2.tag !== "tag:yaml.org,2002:str")) {
        const msg = "With stringKeys, all keys must be strings";
        onError(tag ?? token, "NON_STRING_KEY", msg);
      }
      if (spaceBefore)
        node2.spaceBefore = true;
      if (comment) {
        if (token.type === "scalar" && token.source === "")
          node2.comment = comment;
        else
          node2.commentBefore = comment;
      }
      if (ctx.options.keepSourceTokens && isSrcToken)
        node2.srcToken = token;
      return node2;
    }
    function composeEmptyNode(ctx, offset, before2, pos, { spaceBefore, comment, anchor: anchor2, tag, end }, onError) {
      const token = {
        type: "scalar",
        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before2, pos),
        indent: -1,
        source: ""
      };
      const node2 = composeScalar.composeScalar(ctx, token, tag, onError);
      if (anchor2) {
        node2.anchor = anchor2.source.substring(1);
        if (node2.anchor === "")
          onError(anchor2, "BAD_ALIAS", "Anchor cannot be an empty string");
      }
      if (spaceBefore)
        node2.spaceBefore = true;
      if (comment) {
        node2.comment = comment;
        node2.range[2] = end;
      }
      return node2;
    }
    function composeAlias({ options }, { offset, source, end }, onError) {
      const alias = new Alias.Alias(source.substring(1));
      if (alias.source === "")
        onError(offset, "BAD_ALIAS", "Alias cannot be an empty string");
      if (alias.source.endsWith(":"))
        onError(offset + source.length - 1, "BAD_ALIAS", "Alias ending in : is ambiguous", true);
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
      alias.range = [offset, valueEnd, re.offset];
      if (re.comment)
        alias.comment = re.comment;
      return alias;
    }
    exports.composeEmptyNode = composeEmptyNode;
    exports.composeNode = composeNode;
  }
});

// node_modules/yaml/dist/compose/compose-doc.js
var require_compose_doc = __commonJS({
  "node_modules/yaml/dist/compose/compose-doc.js"(exports) {
    "use strict";
    var Document = require_Document();
    var composeNode = require_compose_node();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    function composeDoc(options, directives, { offset, start, value, end }, onError) {
      const opts = Object.assign({ _directives: directives }, options);
      const doc = new Document.Document(void 0, opts);
      const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
      };
      const props = resolveProps.resolveProps(start, {
        indicator: "doc-start",
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
      });
      if (props.found) {
        doc.directives.docStart = true;
        if (value && (value.type === "block-map" || value.type === "block-seq") && !props.hasNewline)
          onError(props.end, "MISSING_CHAR", "Block collection cannot start on same line with directives-end marker");
      }
      doc.contents = value ? composeNode.composeNode(ctx, value, props, onError) : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
      const contentEnd = doc.contents.range[2];
      const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
      if (re.comment)
        doc.comment = re.comment;
      doc.range = [offset, contentEnd, re.offset];
      return doc;
    }
    exports.composeDoc = composeDoc;
  }
});

// node_modules/yaml/dist/compose/composer.js
var require_composer = __commonJS({
  "node_modules/yaml/dist/compose/composer.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var directives = require_directives();
    var Document = require_Document();
    var errors = require_errors();
    var identity = require_identity();
    var composeDoc = require_compose_doc();
    var resolveEnd = require_resolve_end();
    function getErrorPos(src) {
      if (typeof src === "number")
        return [src, src + 1];
      if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
      const { offset, source } = src;
      return [offset, offset + (typeof source === "string" ? source.length : 1)];
    }
    function parsePrelude(prelude) {
      let comment = "";
      let atComment = false;
      let afterEmptyLine = false;
      for (let i = 0; i < prelude.length; ++i) {
        const source = prelude[i];
        switch (source[0]) {
          case "#":
            comment += (comment === "" ? "" : afterEmptyLine ? "\n\n" : "\n") + (source.substring(1) || " ");
            atComment = true;
            afterEmptyLine = false;
            break;
          case "%":
            if (prelude[i + 1]?.[0] !== "#")
              i += 1;
            atComment = false;
            break;
          default:
            if (!atComment)
              afterEmptyLine = true;
            atComment = false;
        }
      }
      return { comment, afterEmptyLine };
    }
    var Composer = class {
      constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code2, message, warning) => {
          const pos = getErrorPos(source);
          if (warning)
            this.warnings.push(new errors.YAMLWarning(pos, code2, message));
          else
            this.errors.push(new errors.YAMLParseError(pos, code2, message));
        };
        this.directives = new directives.Directives({ version: options.version || "1.2" });
        this.options = options;
      }
      decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        if (comment) {
          const dc = doc.contents;
          if (afterDoc) {
            doc.comment = doc.comment ? `${doc.comment}
${comment}` : comment;
          } else if (afterEmptyLine || doc.directives.docStart || !dc) {
            doc.commentBefore = comment;
          } else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
            let it = dc.items[0];
            if (identity.isPair(it))
              it = it.key;
            const cb = it.commentBefore;
            it.commentBefore = cb ? `${comment}
${cb}` : comment;
          } else {
            const cb = dc.commentBefore;
            dc.commentBefore = cb ? `${comment}
${cb}` : comment;
          }
        }
        if (afterDoc) {
          for (let i = 0; i < this.errors.length; ++i)
            doc.errors.push(this.errors[i]);
          for (let i = 0; i < this.warnings.length; ++i)
            doc.warnings.push(this.warnings[i]);
        } else {
          doc.errors = this.errors;
          doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
      }
      /**
       * Current stream status information.
       *
       * Mostly useful at the end of input for an empty stream.
       */
      streamInfo() {
        return {
          comment: parsePrelude(this.prelude).comment,
          directives: this.directives,
          errors: this.errors,
          warnings: this.warnings
        };
      }
      /**
       * Compose tokens into documents.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
          yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
      }
      /** Advance the composer by one CST token. */
      *next(token) {
        if (node_process.env.LOG_STREAM)
          console.dir(token, { depth: null });
        switch (token.type) {
          case "directive":
            this.directives.add(token.source, (offset, message, warning) => {
              const pos = getErrorPos(token);
              pos[0] += offset;
              this.onError(pos, "BAD_DIRECTIVE", message, warning);
            });
            this.prelude.push(token.source);
            this.atDirectives = true;
            break;
          case "document": {
            const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
            if (this.atDirectives && !doc.directives.docStart)
              this.onError(token, "MISSING_CHAR", "Missing directives-end/doc-start indicator line");
            this.decorate(doc, false);
            if (this.doc)
              yield this.doc;
            this.doc = doc;
            this.atDirectives = false;
            break;
          }
          case "byte-order-mark":
          case "space":
            break;
          case "comment":
          case "newline":
            this.prelude.push(token.source);
            break;
          case "error": {
            const msg = token.source ? `${token.message}: ${JSON.stringify(token.source)}` : token.message;
            const error2 = new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg);
            if (this.atDirectives || !this.doc)
              this.errors.push(error2);
            else
              this.doc.errors.push(error2);
            break;
          }
          case "doc-end": {
            if (!this.doc) {
              const msg = "Unexpected doc-end without preceding document";
              this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg));
              break;
            }
            this.doc.directives.docEnd = true;
            const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
            this.decorate(this.doc, true);
            if (end.comment) {
              const dc = this.doc.comment;
              this.doc.comment = dc ? `${dc}
${end.comment}` : end.comment;
            }
            this.doc.range[2] = end.offset;
            break;
          }
          default:
            this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", `Unsupported token ${token.type}`));
        }
      }
      /**
       * Call at end of input to yield any remaining document.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
          this.decorate(this.doc, true);
          yield this.doc;
          this.doc = null;
        } else if (forceDoc) {
          const opts = Object.assign({ _directives: this.directives }, this.options);
          const doc = new Document.Document(void 0, opts);
          if (this.atDirectives)
            this.onError(endOffset, "MISSING_CHAR", "Missing directives-end indicator line");
          doc.range = [0, endOffset, endOffset];
          this.decorate(doc, false);
          yield doc;
        }
      }
    };
    exports.Composer = Composer;
  }
});

// node_modules/yaml/dist/parse/cst-scalar.js
var require_cst_scalar = __commonJS({
  "node_modules/yaml/dist/parse/cst-scalar.js"(exports) {
    "use strict";
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    var errors = require_errors();
    var stringifyString = require_stringifyString();
    function resolveAsScalar(token, strict = true, onError) {
      if (token) {
        const _onError = (pos, code2, message) => {
          const offset = typeof pos === "number" ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
          if (onError)
            onError(offset, code2, message);
          else
            throw new errors.YAMLParseError([offset, offset + 1], code2, message);
        };
        switch (token.type) {
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
          case "block-scalar":
            return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
        }
      }
      return null;
    }
    function createScalarToken(value, context) {
      const { implicitKey = false, indent, inFlow = false, offset = -1, type = "PLAIN" } = context;
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey,
        indent: indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      const end = context.end ?? [
        { type: "newline", offset: -1, indent, source: "\n" }
      ];
      switch (source[0]) {
        case "|":
        case ">": {
          const he = source.indexOf("\n");
          const head = source.substring(0, he);
          const body = source.substring(he + 1) + "\n";
          const props = [
            { type: "block-scalar-header", offset, indent, source: head }
          ];
          if (!addEndtoBlockProps(props, end))
            props.push({ type: "newline", offset: -1, indent, source: "\n" });
          return { type: "block-scalar", offset, indent, props, source: body };
        }
        case '"':
          return { type: "double-quoted-scalar", offset, indent, source, end };
        case "'":
          return { type: "single-quoted-scalar", offset, indent, source, end };
        default:
          return { type: "scalar", offset, indent, source, end };
      }
    }
    function setScalarValue(token, value, context = {}) {
      let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
      let indent = "indent" in token ? token.indent : null;
      if (afterKey && typeof indent === "number")
        indent += 2;
      if (!type)
        switch (token.type) {
          case "single-quoted-scalar":
            type = "QUOTE_SINGLE";
            break;
          case "double-quoted-scalar":
            type = "QUOTE_DOUBLE";
            break;
          case "block-scalar": {
            const header = token.props[0];
            if (header.type !== "block-scalar-header")
              throw new Error("Invalid block scalar header");
            type = header.source[0] === ">" ? "BLOCK_FOLDED" : "BLOCK_LITERAL";
            break;
          }
          default:
            type = "PLAIN";
        }
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey: implicitKey || indent === null,
        indent: indent !== null && indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      switch (source[0]) {
        case "|":
        case ">":
          setBlockScalarValue(token, source);
          break;
        case '"':
          setFlowScalarValue(token, source, "double-quoted-scalar");
          break;
        case "'":
          setFlowScalarValue(token, source, "single-quoted-scalar");
          break;
        default:
          setFlowScalarValue(token, source, "scalar");
      }
    }
    function setBlockScalarValue(token, source) {
      const he = source.indexOf("\n");
      const head = source.substring(0, he);
      const body = source.substring(he + 1) + "\n";
      if (token.type === "block-scalar") {
        const header = token.props[0];
        if (header.type !== "block-scalar-header")
          throw new Error("Invalid block scalar header");
        header.source = head;
        token.source = body;
      } else {
        const { offset } = token;
        const indent = "indent" in token ? token.indent : -1;
        const props = [
          { type: "block-scalar-header", offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, "end" in token ? token.end : void 0))
          props.push({ type: "newline", offset: -1, indent, source: "\n" });
        for (const key of Object.keys(token))
          if (key !== "type" && key !== "offset")
            delete token[key];
        Object.assign(token, { type: "block-scalar", indent, props, source: body });
      }
    }
    function addEndtoBlockProps(props, end) {
      if (end)
        for (const st of end)
          switch (st.type) {
            case "space":
            case "comment":
              props.push(st);
              break;
            case "newline":
              props.push(st);
              return true;
          }
      return false;
    }
    function setFlowScalarValue(token, source, type) {
      switch (token.type) {
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          token.type = type;
          token.source = source;
          break;
        case "block-scalar": {
          const end = token.props.slice(1);
          let oa = source.length;
          if (token.props[0].type === "block-scalar-header")
            oa -= token.props[0].source.length;
          for (const tok of end)
            tok.offset += oa;
          delete token.props;
          Object.assign(token, { type, source, end });
          break;
        }
        case "block-map":
        case "block-seq": {
          const offset = token.offset + source.length;
          const nl = { type: "newline", offset, indent: token.indent, source: "\n" };
          delete token.items;
          Object.assign(token, { type, source, end: [nl] });
          break;
        }
        default: {
          const indent = "indent" in token ? token.indent : -1;
          const end = "end" in token && Array.isArray(token.end) ? token.end.filter((st) => st.type === "space" || st.type === "comment" || st.type === "newline") : [];
          for (const key of Object.keys(token))
            if (key !== "type" && key !== "offset")
              delete token[key];
          Object.assign(token, { type, indent, source, end });
        }
      }
    }
    exports.createScalarToken = createScalarToken;
    exports.resolveAsScalar = resolveAsScalar;
    exports.setScalarValue = setScalarValue;
  }
});

// node_modules/yaml/dist/parse/cst-stringify.js
var require_cst_stringify = __commonJS({
  "node_modules/yaml/dist/parse/cst-stringify.js"(exports) {
    "use strict";
    var stringify = (cst) => "type" in cst ? stringifyToken(cst) : stringifyItem(cst);
    function stringifyToken(token) {
      switch (token.type) {
        case "block-scalar": {
          let res = "";
          for (const tok of token.props)
            res += stringifyToken(tok);
          return res + token.source;
        }
        case "block-map":
        case "block-seq": {
          let res = "";
          for (const item of token.items)
            res += stringifyItem(item);
          return res;
        }
        case "flow-collection": {
          let res = token.start.source;
          for (const item of token.items)
            res += stringifyItem(item);
          for (const st of token.end)
            res += st.source;
          return res;
        }
        case "document": {
          let res = stringifyItem(token);
          if (token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
        default: {
          let res = token.source;
          if ("end" in token && token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
      }
    }
    function stringifyItem({ start, key, sep: sep8, value }) {
      let res = "";
      for (const st of start)
        res += st.source;
      if (key)
        res += stringifyToken(key);
      if (sep8)
        for (const st of sep8)
          res += st.source;
      if (value)
        res += stringifyToken(value);
      return res;
    }
    exports.stringify = stringify;
  }
});

// node_modules/yaml/dist/parse/cst-visit.js
var require_cst_visit = __commonJS({
  "node_modules/yaml/dist/parse/cst-visit.js"(exports) {
    "use strict";
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove item");
    function visit(cst, visitor) {
      if ("type" in cst && cst.type === "document")
        cst = { start: cst.start, value: cst.value };
      _visit(Object.freeze([]), cst, visitor);
    }
    visit.BREAK = BREAK;
    visit.SKIP = SKIP;
    visit.REMOVE = REMOVE;
    visit.itemAtPath = (cst, path) => {
      let item = cst;
      for (const [field, index] of path) {
        const tok = item?.[field];
        if (tok && "items" in tok) {
          item = tok.items[index];
        } else
          return void 0;
      }
      return item;
    };
    visit.parentCollection = (cst, path) => {
      const parent = visit.itemAtPath(cst, path.slice(0, -1));
      const field = path[path.length - 1][0];
      const coll = parent?.[field];
      if (coll && "items" in coll)
        return coll;
      throw new Error("Parent collection not found");
    };
    function _visit(path, item, visitor) {
      let ctrl = visitor(item, path);
      if (typeof ctrl === "symbol")
        return ctrl;
      for (const field of ["key", "value"]) {
        const token = item[field];
        if (token && "items" in token) {
          for (let i = 0; i < token.items.length; ++i) {
            const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              token.items.splice(i, 1);
              i -= 1;
            }
          }
          if (typeof ctrl === "function" && field === "key")
            ctrl = ctrl(item, path);
        }
      }
      return typeof ctrl === "function" ? ctrl(item, path) : ctrl;
    }
    exports.visit = visit;
  }
});

// node_modules/yaml/dist/parse/cst.js
var require_cst = __commonJS({
  "node_modules/yaml/dist/parse/cst.js"(exports) {
    "use strict";
    var cstScalar = require_cst_scalar();
    var cstStringify = require_cst_stringify();
    var cstVisit = require_cst_visit();
    var BOM = "\uFEFF";
    var DOCUMENT = "";
    var FLOW_END = "";
    var SCALAR = "";
    var isCollection = (token) => !!token && "items" in token;
    var isScalar = (token) => !!token && (token.type === "scalar" || token.type === "single-quoted-scalar" || token.type === "double-quoted-scalar" || token.type === "block-scalar");
    function prettyToken(token) {
      switch (token) {
        case BOM:
          return "<BOM>";
        case DOCUMENT:
          return "<DOC>";
        case FLOW_END:
          return "<FLOW_END>";
        case SCALAR:
          return "<SCALAR>";
        default:
          return JSON.stringify(token);
      }
    }
    function tokenType(source) {
      switch (source) {
        case BOM:
          return "byte-order-mark";
        case DOCUMENT:
          return "doc-mode";
        case FLOW_END:
          return "flow-error-end";
        case SCALAR:
          return "scalar";
        case "---":
          return "doc-start";
        case "...":
          return "doc-end";
        case "":
        case "\n":
        case "\r\n":
          return "newline";
        case "-":
          return "seq-item-ind";
        case "?":
          return "explicit-key-ind";
        case ":":
          return "map-value-ind";
        case "{":
          return "flow-map-start";
        case "}":
          return "flow-map-end";
        case "[":
          return "flow-seq-start";
        case "]":
          return "flow-seq-end";
        case ",":
          return "comma";
      }
      switch (source[0]) {
        case " ":
        case "	":
          return "space";
        case "#":
          return "comment";
        case "%":
          return "directive-line";
        case "*":
          return "alias";
        case "&":
          return "anchor";
        case "!":
          return "tag";
        case "'":
          return "single-quoted-scalar";
        case '"':
          return "double-quoted-scalar";
        case "|":
        case ">":
          return "block-scalar-header";
      }
      return null;
    }
    exports.createScalarToken = cstScalar.createScalarToken;
    exports.resolveAsScalar = cstScalar.resolveAsScalar;
    exports.setScalarValue = cstScalar.setScalarValue;
    exports.stringify = cstStringify.stringify;
    exports.visit = cstVisit.visit;
    exports.BOM = BOM;
    exports.DOCUMENT = DOCUMENT;
    exports.FLOW_END = FLOW_END;
    exports.SCALAR = SCALAR;
    exports.isCollection = isCollection;
    exports.isScalar = isScalar;
    exports.prettyToken = prettyToken;
    exports.tokenType = tokenType;
  }
});

// node_modules/yaml/dist/parse/lexer.js
var require_lexer = __commonJS({
  "node_modules/yaml/dist/parse/lexer.js"(exports) {
    "use strict";
    var cst = require_cst();
    function isEmpty(ch) {
      switch (ch) {
        case void 0:
        case " ":
        case "\n":
        case "\r":
        case "	":
          return true;
        default:
          return false;
      }
    }
    var hexDigits = new Set("0123456789ABCDEFabcdef");
    var tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
    var flowIndicatorChars = new Set(",[]{}");
    var invalidAnchorChars = new Set(" ,[]{}\n\r	");
    var isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
    var Lexer = class {
      constructor() {
        this.atEnd = false;
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        this.buffer = "";
        this.flowKey = false;
        this.flowLevel = 0;
        this.indentNext = 0;
        this.indentValue = 0;
        this.lineEndPos = null;
        this.next = null;
        this.pos = 0;
      }
      /**
       * Generate YAML tokens from the `source` string. If `incomplete`,
       * a part of the last line may be left as a buffer for the next call.
       *
       * @returns A generator of lexical tokens
       */
      *lex(source, incomplete = false) {
        if (source) {
          if (typeof source !== "string")
            throw TypeError("source is not a string");
          this.buffer = this.buffer ? this.buffer + source : source;
          this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? "stream";
        while (next && (incomplete || this.hasChars(1)))
          next = yield* this.parseNext(next);
      }
      atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === " " || ch === "	")
          ch = this.buffer[++i];
        if (!ch || ch === "#" || ch === "\n")
          return true;
        if (ch === "\r")
          return this.buffer[i + 1] === "\n";
        return false;
      }
      charAt(n) {
        return this.buffer[this.pos + n];
      }
      continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
          let indent = 0;
          while (ch === " ")
            ch = this.buffer[++indent + offset];
          if (ch === "\r") {
            const next = this.buffer[indent + offset + 1];
            if (next === "\n" || !next && !this.atEnd)
              return offset + indent + 1;
          }
          return ch === "\n" || indent >= this.indentNext || !ch && !this.atEnd ? offset + indent : -1;
        }
        if (ch === "-" || ch === ".") {
          const dt = this.buffer.substr(offset, 3);
          if ((dt === "---" || dt === "...") && isEmpty(this.buffer[offset + 3]))
            return -1;
        }
        return offset;
      }
      getLine() {
        let end = this.lineEndPos;
        if (typeof end !== "number" || end !== -1 && end < this.pos) {
          end = this.buffer.indexOf("\n", this.pos);
          this.lineEndPos = end;
        }
        if (end === -1)
          return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === "\r")
          end -= 1;
        return this.buffer.substring(this.pos, end);
      }
      hasChars(n) {
        return this.pos + n <= this.buffer.length;
      }
      setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
      }
      peek(n) {
        return this.buffer.substr(this.pos, n);
      }
      *parseNext(next) {
        switch (next) {
          case "stream":
            return yield* this.parseStream();
          case "line-start":
            return yield* this.parseLineStart();
          case "block-start":
            return yield* this.parseBlockStart();
          case "doc":
            return yield* this.parseDocument();
          case "flow":
            return yield* this.parseFlowCollection();
          case "quoted-scalar":
            return yield* this.parseQuotedScalar();
          case "block-scalar":
            return yield* this.parseBlockScalar();
          case "plain-scalar":
            return yield* this.parsePlainScalar();
        }
      }
      *parseStream() {
        let line = this.getLine();
        if (line === null)
          return this.setNext("stream");
        if (line[0] === cst.BOM) {
          yield* this.pushCount(1);
          line = line.substring(1);
        }
        if (line[0] === "%") {
          let dirEnd = line.length;
          let cs = line.indexOf("#");
          while (cs !== -1) {
            const ch = line[cs - 1];
            if (ch === " " || ch === "	") {
              dirEnd = cs - 1;
              break;
            } else {
              cs = line.indexOf("#", cs + 1);
            }
          }
          while (true) {
            const ch = line[dirEnd - 1];
            if (ch === " " || ch === "	")
              dirEnd -= 1;
            else
              break;
          }
          const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
          yield* this.pushCount(line.length - n);
          this.pushNewline();
          return "stream";
        }
        if (this.atLineEnd()) {
          const sp = yield* this.pushSpaces(true);
          yield* this.pushCount(line.length - sp);
          yield* this.pushNewline();
          return "stream";
        }
        yield cst.DOCUMENT;
        return yield* this.parseLineStart();
      }
      *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
          return this.setNext("line-start");
        if (ch === "-" || ch === ".") {
          if (!this.atEnd && !this.hasChars(4))
            return this.setNext("line-start");
          const s = this.peek(3);
          if ((s === "---" || s === "...") && isEmpty(this.charAt(3))) {
            yield* this.pushCount(3);
            this.indentValue = 0;
            this.indentNext = 0;
            return s === "---" ? "doc" : "stream";
          }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
          this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
      }
      *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
          return this.setNext("block-start");
        if ((ch0 === "-" || ch0 === "?" || ch0 === ":") && isEmpty(ch1)) {
          const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
          this.indentNext = this.indentValue + 1;
          this.indentValue += n;
          return "block-start";
        }
        return "doc";
      }
      *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
          return this.setNext("doc");
        let n = yield* this.pushIndicators();
        switch (line[n]) {
          case "#":
            yield* this.pushCount(line.length - n);
          // fallthrough
          case void 0:
            yield* this.pushNewline();
            return yield* this.parseLineStart();
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel = 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            return "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "doc";
          case '"':
          case "'":
            return yield* this.parseQuotedScalar();
          case "|":
          case ">":
            n += yield* this.parseBlockScalarHeader();
            n += yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - n);
            yield* this.pushNewline();
            return yield* this.parseBlockScalar();
          default:
            return yield* this.parsePlainScalar();
        }
      }
      *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
          nl = yield* this.pushNewline();
          if (nl > 0) {
            sp = yield* this.pushSpaces(false);
            this.indentValue = indent = sp;
          } else {
            sp = 0;
          }
          sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
          return this.setNext("flow");
        if (indent !== -1 && indent < this.indentNext && line[0] !== "#" || indent === 0 && (line.startsWith("---") || line.startsWith("...")) && isEmpty(line[3])) {
          const atFlowEndMarker = indent === this.indentNext - 1 && this.flowLevel === 1 && (line[0] === "]" || line[0] === "}");
          if (!atFlowEndMarker) {
            this.flowLevel = 0;
            yield cst.FLOW_END;
            return yield* this.parseLineStart();
          }
        }
        let n = 0;
        while (line[n] === ",") {
          n += yield* this.pushCount(1);
          n += yield* this.pushSpaces(true);
          this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
          case void 0:
            return "flow";
          case "#":
            yield* this.pushCount(line.length - n);
            return "flow";
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel += 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            this.flowKey = true;
            this.flowLevel -= 1;
            return this.flowLevel ? "flow" : "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "flow";
          case '"':
          case "'":
            this.flowKey = true;
            return yield* this.parseQuotedScalar();
          case ":": {
            const next = this.charAt(1);
            if (this.flowKey || isEmpty(next) || next === ",") {
              this.flowKey = false;
              yield* this.pushCount(1);
              yield* this.pushSpaces(true);
              return "flow";
            }
          }
          // fallthrough
          default:
            this.flowKey = false;
            return yield* this.parsePlainScalar();
        }
      }
      *parseQuotedScalar() {
        const quote = this.charAt(0);
        let end = this.buffer.indexOf(quote, this.pos + 1);
        if (quote === "'") {
          while (end !== -1 && this.buffer[end + 1] === "'")
            end = this.buffer.indexOf("'", end + 2);
        } else {
          while (end !== -1) {
            let n = 0;
            while (this.buffer[end - 1 - n] === "\\")
              n += 1;
            if (n % 2 === 0)
              break;
            end = this.buffer.indexOf('"', end + 1);
          }
        }
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf("\n", this.pos);
        if (nl !== -1) {
          while (nl !== -1) {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = qb.indexOf("\n", cs);
          }
          if (nl !== -1) {
            end = nl - (qb[nl - 1] === "\r" ? 2 : 1);
          }
        }
        if (end === -1) {
          if (!this.atEnd)
            return this.setNext("quoted-scalar");
          end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? "flow" : "doc";
      }
      *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
          const ch = this.buffer[++i];
          if (ch === "+")
            this.blockScalarKeep = true;
          else if (ch > "0" && ch <= "9")
            this.blockScalarIndent = Number(ch) - 1;
          else if (ch !== "-")
            break;
        }
        return yield* this.pushUntil((ch) => isEmpty(ch) || ch === "#");
      }
      *parseBlockScalar() {
        let nl = this.pos - 1;
        let indent = 0;
        let ch;
        loop: for (let i2 = this.pos; ch = this.buffer[i2]; ++i2) {
          switch (ch) {
            case " ":
              indent += 1;
              break;
            case "\n":
              nl = i2;
              indent = 0;
              break;
            case "\r": {
              const next = this.buffer[i2 + 1];
              if (!next && !this.atEnd)
                return this.setNext("block-scalar");
              if (next === "\n")
                break;
            }
            // fallthrough
            default:
              break loop;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("block-scalar");
        if (indent >= this.indentNext) {
          if (this.blockScalarIndent === -1)
            this.indentNext = indent;
          else {
            this.indentNext = this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
          }
          do {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = this.buffer.indexOf("\n", cs);
          } while (nl !== -1);
          if (nl === -1) {
            if (!this.atEnd)
              return this.setNext("block-scalar");
            nl = this.buffer.length;
          }
        }
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === " ")
          ch = this.buffer[++i];
        if (ch === "	") {
          while (ch === "	" || ch === " " || ch === "\r" || ch === "\n")
            ch = this.buffer[++i];
          nl = i - 1;
        } else if (!this.blockScalarKeep) {
          do {
            let i2 = nl - 1;
            let ch2 = this.buffer[i2];
            if (ch2 === "\r")
              ch2 = this.buffer[--i2];
            const lastChar = i2;
            while (ch2 === " ")
              ch2 = this.buffer[--i2];
            if (ch2 === "\n" && i2 >= this.pos && i2 + 1 + indent > lastChar)
              nl = i2;
            else
              break;
          } while (true);
        }
        yield cst.SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
      }
      *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while (ch = this.buffer[++i]) {
          if (ch === ":") {
            const next = this.buffer[i + 1];
            if (isEmpty(next) || inFlow && flowIndicatorChars.has(next))
              break;
            end = i;
          } else if (isEmpty(ch)) {
            let next = this.buffer[i + 1];
            if (ch === "\r") {
              if (next === "\n") {
                i += 1;
                ch = "\n";
                next = this.buffer[i + 1];
              } else
                end = i;
            }
            if (next === "#" || inFlow && flowIndicatorChars.has(next))
              break;
            if (ch === "\n") {
              const cs = this.continueScalar(i + 1);
              if (cs === -1)
                break;
              i = Math.max(i, cs - 2);
            }
          } else {
            if (inFlow && flowIndicatorChars.has(ch))
              break;
            end = i;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("plain-scalar");
        yield cst.SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? "flow" : "doc";
      }
      *pushCount(n) {
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos += n;
          return n;
        }
        return 0;
      }
      *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
          yield s;
          this.pos += s.length;
          return s.length;
        } else if (allowEmpty)
          yield "";
        return 0;
      }
      *pushIndicators() {
        let n = 0;
        loop: while (true) {
          switch (this.charAt(0)) {
            case "!":
              n += yield* this.pushTag();
              n += yield* this.pushSpaces(true);
              continue loop;
            case "&":
              n += yield* this.pushUntil(isNotAnchorChar);
              n += yield* this.pushSpaces(true);
              continue loop;
            case "-":
            // this is an error
            case "?":
            // this is an error outside flow collections
            case ":": {
              const inFlow = this.flowLevel > 0;
              const ch1 = this.charAt(1);
              if (isEmpty(ch1) || inFlow && flowIndicatorChars.has(ch1)) {
                if (!inFlow)
                  this.indentNext = this.indentValue + 1;
                else if (this.flowKey)
                  this.flowKey = false;
                n += yield* this.pushCount(1);
                n += yield* this.pushSpaces(true);
                continue loop;
              }
            }
          }
          break loop;
        }
        return n;
      }
      *pushTag() {
        if (this.charAt(1) === "<") {
          let i = this.pos + 2;
          let ch = this.buffer[i];
          while (!isEmpty(ch) && ch !== ">")
            ch = this.buffer[++i];
          return yield* this.pushToIndex(ch === ">" ? i + 1 : i, false);
        } else {
          let i = this.pos + 1;
          let ch = this.buffer[i];
          while (ch) {
            if (tagChars.has(ch))
              ch = this.buffer[++i];
            else if (ch === "%" && hexDigits.has(this.buffer[i + 1]) && hexDigits.has(this.buffer[i + 2])) {
              ch = this.buffer[i += 3];
            } else
              break;
          }
          return yield* this.pushToIndex(i, false);
        }
      }
      *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === "\n")
          return yield* this.pushCount(1);
        else if (ch === "\r" && this.charAt(1) === "\n")
          return yield* this.pushCount(2);
        else
          return 0;
      }
      *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
          ch = this.buffer[++i];
        } while (ch === " " || allowTabs && ch === "	");
        const n = i - this.pos;
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos = i;
        }
        return n;
      }
      *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
          ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
      }
    };
    exports.Lexer = Lexer;
  }
});

// node_modules/yaml/dist/parse/line-counter.js
var require_line_counter = __commonJS({
  "node_modules/yaml/dist/parse/line-counter.js"(exports) {
    "use strict";
    var LineCounter = class {
      constructor() {
        this.lineStarts = [];
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        this.linePos = (offset) => {
          let low = 0;
          let high = this.lineStarts.length;
          while (low < high) {
            const mid = low + high >> 1;
            if (this.lineStarts[mid] < offset)
              low = mid + 1;
            else
              high = mid;
          }
          if (this.lineStarts[low] === offset)
            return { line: low + 1, col: 1 };
          if (low === 0)
            return { line: 0, col: offset };
          const start = this.lineStarts[low - 1];
          return { line: low, col: offset - start + 1 };
        };
      }
    };
    exports.LineCounter = LineCounter;
  }
});

// node_modules/yaml/dist/parse/parser.js
var require_parser = __commonJS({
  "node_modules/yaml/dist/parse/parser.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var cst = require_cst();
    var lexer = require_lexer();
    function includesToken(list3, type) {
      for (let i = 0; i < list3.length; ++i)
        if (list3[i].type === type)
          return true;
      return false;
    }
    function findNonEmptyIndex(list3) {
      for (let i = 0; i < list3.length; ++i) {
        switch (list3[i].type) {
          case "space":
          case "comment":
          case "newline":
            break;
          default:
            return i;
        }
      }
      return -1;
    }
    function isFlowToken(token) {
      switch (token?.type) {
        case "alias":
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "flow-collection":
          return true;
        default:
          return false;
      }
    }
    function getPrevProps(parent) {
      switch (parent.type) {
        case "document":
          return parent.start;
        case "block-map": {
          const it = parent.items[parent.items.length - 1];
          return it.sep ?? it.start;
        }
        case "block-seq":
          return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
          return [];
      }
    }
    function getFirstKeyStartProps(prev) {
      if (prev.length === 0)
        return [];
      let i = prev.length;
      loop: while (--i >= 0) {
        switch (prev[i].type) {
          case "doc-start":
          case "explicit-key-ind":
          case "map-value-ind":
          case "seq-item-ind":
          case "newline":
            break loop;
        }
      }
      while (prev[++i]?.type === "space") {
      }
      return prev.splice(i, prev.length);
    }
    function arrayPushArray(target, source) {
      if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
      else
        for (let i = 0; i < source.length; ++i)
          target.push(source[i]);
    }
    function fixFlowSeqItems(fc) {
      if (fc.start.type === "flow-seq-start") {
        for (const it of fc.items) {
          if (it.sep && !it.value && !includesToken(it.start, "explicit-key-ind") && !includesToken(it.sep, "map-value-ind")) {
            if (it.key)
              it.value = it.key;
            delete it.key;
            if (isFlowToken(it.value)) {
              if (it.value.end)
                arrayPushArray(it.value.end, it.sep);
              else
                it.value.end = it.sep;
            } else
              arrayPushArray(it.start, it.sep);
            delete it.sep;
          }
        }
      }
    }
    var Parser = class {
      /**
       * @param onNewLine - If defined, called separately with the start position of
       *   each new line (in `parse()`, including the start of input).
       */
      constructor(onNewLine) {
        this.atNewLine = true;
        this.atScalar = false;
        this.indent = 0;
        this.offset = 0;
        this.onKeyLine = false;
        this.stack = [];
        this.source = "";
        this.type = "";
        this.lexer = new lexer.Lexer();
        this.onNewLine = onNewLine;
      }
      /**
       * Parse `source` as a YAML stream.
       * If `incomplete`, a part of the last line may be left as a buffer for the next call.
       *
       * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
       *
       * @returns A generator of tokens representing each directive, document, and other structure.
       */
      *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
          this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
          yield* this.next(lexeme);
        if (!incomplete)
          yield* this.end();
      }
      /**
       * Advance the parser by the `source` of one lexical token.
       */
      *next(source) {
        this.source = source;
        if (node_process.env.LOG_TOKENS)
          console.log("|", cst.prettyToken(source));
        if (this.atScalar) {
          this.atScalar = false;
          yield* this.step();
          this.offset += source.length;
          return;
        }
        const type = cst.tokenType(source);
        if (!type) {
          const message = `Not a YAML token: ${source}`;
          yield* this.pop({ type: "error", offset: this.offset, message, source });
          this.offset += source.length;
        } else if (type === "scalar") {
          this.atNewLine = false;
          this.atScalar = true;
          this.type = "scalar";
        } else {
          this.type = type;
          yield* this.step();
          switch (type) {
            case "newline":
              this.atNewLine = true;
              this.indent = 0;
              if (this.onNewLine)
                this.onNewLine(this.offset + source.length);
              break;
            case "space":
              if (this.atNewLine && source[0] === " ")
                this.indent += source.length;
              break;
            case "explicit-key-ind":
            case "map-value-ind":
            case "seq-item-ind":
              if (this.atNewLine)
                this.indent += source.length;
              break;
            case "doc-mode":
            case "flow-error-end":
              return;
            default:
              this.atNewLine = false;
          }
          this.offset += source.length;
        }
      }
      /** Call at end of input to push out any remaining constructions */
      *end() {
        while (this.stack.length > 0)
          yield* this.pop();
      }
      get sourceToken() {
        const st = {
          type: this.type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
        return st;
      }
      *step() {
        const top = this.peek(1);
        if (this.type === "doc-end" && top?.type !== "doc-end") {
          while (this.stack.length > 0)
            yield* this.pop();
          this.stack.push({
            type: "doc-end",
            offset: this.offset,
            source: this.source
          });
          return;
        }
        if (!top)
          return yield* this.stream();
        switch (top.type) {
          case "document":
            return yield* this.document(top);
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return yield* this.scalar(top);
          case "block-scalar":
            return yield* this.blockScalar(top);
          case "block-map":
            return yield* this.blockMap(top);
          case "block-seq":
            return yield* this.blockSequence(top);
          case "flow-collection":
            return yield* this.flowCollection(top);
          case "doc-end":
            return yield* this.documentEnd(top);
        }
        yield* this.pop();
      }
      peek(n) {
        return this.stack[this.stack.length - n];
      }
      *pop(error2) {
        const token = error2 ?? this.stack.pop();
        if (!token) {
          const message = "Tried to pop an empty stack";
          yield { type: "error", offset: this.offset, source: "", message };
        } else if (this.stack.length === 0) {
          yield token;
        } else {
          const top = this.peek(1);
          if (token.type === "block-scalar") {
            token.indent = "indent" in top ? top.indent : 0;
          } else if (token.type === "flow-collection" && top.type === "document") {
            token.indent = 0;
          }
          if (token.type === "flow-collection")
            fixFlowSeqItems(token);
          switch (top.type) {
            case "document":
              top.value = token;
              break;
            case "block-scalar":
              top.props.push(token);
              break;
            case "block-map": {
              const it = top.items[top.items.length - 1];
              if (it.value) {
                top.items.push({ start: [], key: token, sep: [] });
                this.onKeyLine = true;
                return;
              } else if (it.sep) {
                it.value = token;
              } else {
                Object.assign(it, { key: token, sep: [] });
                this.onKeyLine = !it.explicitKey;
                return;
              }
              break;
            }
            case "block-seq": {
              const it = top.items[top.items.length - 1];
              if (it.value)
                top.items.push({ start: [], value: token });
              else
                it.value = token;
              break;
            }
            case "flow-collection": {
              const it = top.items[top.items.length - 1];
              if (!it || it.value)
                top.items.push({ start: [], key: token, sep: [] });
              else if (it.sep)
                it.value = token;
              else
                Object.assign(it, { key: token, sep: [] });
              return;
            }
            /* istanbul ignore next should not happen */
            default:
              yield* this.pop();
              yield* this.pop(token);
          }
          if ((top.type === "document" || top.type === "block-map" || top.type === "block-seq") && (token.type === "block-map" || token.type === "block-seq")) {
            const last = token.items[token.items.length - 1];
            if (last && !last.sep && !last.value && last.start.length > 0 && findNonEmptyIndex(last.start) === -1 && (token.indent === 0 || last.start.every((st) => st.type !== "comment" || st.indent < token.indent))) {
              if (top.type === "document")
                top.end = last.start;
              else
                top.items.push({ start: last.start });
              token.items.splice(-1, 1);
            }
          }
        }
      }
      *stream() {
        switch (this.type) {
          case "directive-line":
            yield { type: "directive", offset: this.offset, source: this.source };
            return;
          case "byte-order-mark":
          case "space":
          case "comment":
          case "newline":
            yield this.sourceToken;
            return;
          case "doc-mode":
          case "doc-start": {
            const doc = {
              type: "document",
              offset: this.offset,
              start: []
            };
            if (this.type === "doc-start")
              doc.start.push(this.sourceToken);
            this.stack.push(doc);
            return;
          }
        }
        yield {
          type: "error",
          offset: this.offset,
          message: `Unexpected ${this.type} token in YAML stream`,
          source: this.source
        };
      }
      *document(doc) {
        if (doc.value)
          return yield* this.lineEnd(doc);
        switch (this.type) {
          case "doc-start": {
            if (findNonEmptyIndex(doc.start) !== -1) {
              yield* this.pop();
              yield* this.step();
            } else
              doc.start.push(this.sourceToken);
            return;
          }
          case "anchor":
          case "tag":
          case "space":
          case "comment":
          case "newline":
            doc.start.push(this.sourceToken);
            return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
          this.stack.push(bv);
        else {
          yield {
            type: "error",
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML document`,
            source: this.source
          };
        }
      }
      *scalar(scalar) {
        if (this.type === "map-value-ind") {
          const prev = getPrevProps(this.peek(2));
          const start = getFirstKeyStartProps(prev);
          let sep8;
          if (scalar.end) {
            sep8 = scalar.end;
            sep8.push(this.sourceToken);
            delete scalar.end;
          } else
            sep8 = [this.sourceToken];
          const map = {
            type: "block-map",
            offset: scalar.offset,
            indent: scalar.indent,
            items: [{ start, key: scalar, sep: sep8 }]
          };
          this.onKeyLine = true;
          this.stack[this.stack.length - 1] = map;
        } else
          yield* this.lineEnd(scalar);
      }
      *blockScalar(scalar) {
        switch (this.type) {
          case "space":
          case "comment":
          case "newline":
            scalar.props.push(this.sourceToken);
            return;
          case "scalar":
            scalar.source = this.source;
            this.atNewLine = true;
            this.indent = 0;
            if (this.onNewLine) {
              let nl = this.source.indexOf("\n") + 1;
              while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf("\n", nl) + 1;
              }
            }
            yield* this.pop();
            break;
          /* istanbul ignore next should not happen */
          default:
            yield* this.pop();
            yield* this.step();
        }
      }
      *blockMap(map) {
        const it = map.items[map.items.length - 1];
        switch (this.type) {
          case "newline":
            this.onKeyLine = false;
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              it.start.push(this.sourceToken);
            }
            return;
          case "space":
          case "comment":
            if (it.value) {
              map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              if (this.atIndentedComment(it.start, map.indent)) {
                const prev = map.items[map.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  map.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
        }
        if (this.indent >= map.indent) {
          const atMapIndent = !this.onKeyLine && this.indent === map.indent;
          const atNextItem = atMapIndent && (it.sep || it.explicitKey) && this.type !== "seq-item-ind";
          let start = [];
          if (atNextItem && it.sep && !it.value) {
            const nl = [];
            for (let i = 0; i < it.sep.length; ++i) {
              const st = it.sep[i];
              switch (st.type) {
                case "newline":
                  nl.push(i);
                  break;
                case "space":
                  break;
                case "comment":
                  if (st.indent > map.indent)
                    nl.length = 0;
                  break;
                default:
                  nl.length = 0;
              }
            }
            if (nl.length >= 2)
              start = it.sep.splice(nl[1]);
          }
          switch (this.type) {
            case "anchor":
            case "tag":
              if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start });
                this.onKeyLine = true;
              } else if (it.sep) {
                it.sep.push(this.sourceToken);
              } else {
                it.start.push(this.sourceToken);
              }
              return;
            case "explicit-key-ind":
              if (!it.sep && !it.explicitKey) {
                it.start.push(this.sourceToken);
                it.explicitKey = true;
              } else if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start, explicitKey: true });
              } else {
                this.stack.push({
                  type: "block-map",
                  offset: this.offset,
                  indent: this.indent,
                  items: [{ start: [this.sourceToken], explicitKey: true }]
                });
              }
              this.onKeyLine = true;
              return;
            case "map-value-ind":
              if (it.explicitKey) {
                if (!it.sep) {
                  if (includesToken(it.start, "newline")) {
                    Object.assign(it, { key: null, sep: [this.sourceToken] });
                  } else {
                    const start2 = getFirstKeyStartProps(it.start);
                    this.stack.push({
                      type: "block-map",
                      offset: this.offset,
                      indent: this.indent,
                      items: [{ start: start2, key: null, sep: [this.sourceToken] }]
                    });
                  }
                } else if (it.value) {
                  map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                  });
                } else if (isFlowToken(it.key) && !includesToken(it.sep, "newline")) {
                  const start2 = getFirstKeyStartProps(it.start);
                  const key = it.key;
                  const sep8 = it.sep;
                  sep8.push(this.sourceToken);
                  delete it.key;
                  delete it.sep;
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: start2, key, sep: sep8 }]
                  });
                } else if (start.length > 0) {
                  it.sep = it.sep.concat(start, this.sourceToken);
                } else {
                  it.sep.push(this.sourceToken);
                }
              } else {
                if (!it.sep) {
                  Object.assign(it, { key: null, sep: [this.sourceToken] });
                } else if (it.value || atNextItem) {
                  map.items.push({ start, key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [], key: null, sep: [this.sourceToken] }]
                  });
                } else {
                  it.sep.push(this.sourceToken);
                }
              }
              this.onKeyLine = true;
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (atNextItem || it.value) {
                map.items.push({ start, key: fs, sep: [] });
                this.onKeyLine = true;
              } else if (it.sep) {
                this.stack.push(fs);
              } else {
                Object.assign(it, { key: fs, sep: [] });
                this.onKeyLine = true;
              }
              return;
            }
            default: {
              const bv = this.startBlockValue(map);
              if (bv) {
                if (bv.type === "block-seq") {
                  if (!it.explicitKey && it.sep && !includesToken(it.sep, "newline")) {
                    yield* this.pop({
                      type: "error",
                      offset: this.offset,
                      message: "Unexpected block-seq-ind on same line with key",
                      source: this.source
                    });
                    return;
                  }
                } else if (atMapIndent) {
                  map.items.push({ start });
                }
                this.stack.push(bv);
                return;
              }
            }
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
          case "newline":
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                seq.items.push({ start: [this.sourceToken] });
            } else
              it.start.push(this.sourceToken);
            return;
          case "space":
          case "comment":
            if (it.value)
              seq.items.push({ start: [this.sourceToken] });
            else {
              if (this.atIndentedComment(it.start, seq.indent)) {
                const prev = seq.items[seq.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  seq.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
          case "anchor":
          case "tag":
            if (it.value || this.indent <= seq.indent)
              break;
            it.start.push(this.sourceToken);
            return;
          case "seq-item-ind":
            if (this.indent !== seq.indent)
              break;
            if (it.value || includesToken(it.start, "seq-item-ind"))
              seq.items.push({ start: [this.sourceToken] });
            else
              it.start.push(this.sourceToken);
            return;
        }
        if (this.indent > seq.indent) {
          const bv = this.startBlockValue(seq);
          if (bv) {
            this.stack.push(bv);
            return;
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === "flow-error-end") {
          let top;
          do {
            yield* this.pop();
            top = this.peek(1);
          } while (top?.type === "flow-collection");
        } else if (fc.end.length === 0) {
          switch (this.type) {
            case "comma":
            case "explicit-key-ind":
              if (!it || it.sep)
                fc.items.push({ start: [this.sourceToken] });
              else
                it.start.push(this.sourceToken);
              return;
            case "map-value-ind":
              if (!it || it.value)
                fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                Object.assign(it, { key: null, sep: [this.sourceToken] });
              return;
            case "space":
            case "comment":
            case "newline":
            case "anchor":
            case "tag":
              if (!it || it.value)
                fc.items.push({ start: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                it.start.push(this.sourceToken);
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (!it || it.value)
                fc.items.push({ start: [], key: fs, sep: [] });
              else if (it.sep)
                this.stack.push(fs);
              else
                Object.assign(it, { key: fs, sep: [] });
              return;
            }
            case "flow-map-end":
            case "flow-seq-end":
              fc.end.push(this.sourceToken);
              return;
          }
          const bv = this.startBlockValue(fc);
          if (bv)
            this.stack.push(bv);
          else {
            yield* this.pop();
            yield* this.step();
          }
        } else {
          const parent = this.peek(2);
          if (parent.type === "block-map" && (this.type === "map-value-ind" && parent.indent === fc.indent || this.type === "newline" && !parent.items[parent.items.length - 1].sep)) {
            yield* this.pop();
            yield* this.step();
          } else if (this.type === "map-value-ind" && parent.type !== "flow-collection") {
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            fixFlowSeqItems(fc);
            const sep8 = fc.end.splice(1, fc.end.length);
            sep8.push(this.sourceToken);
            const map = {
              type: "block-map",
              offset: fc.offset,
              indent: fc.indent,
              items: [{ start, key: fc, sep: sep8 }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
          } else {
            yield* this.lineEnd(fc);
          }
        }
      }
      flowScalar(type) {
        if (this.onNewLine) {
          let nl = this.source.indexOf("\n") + 1;
          while (nl !== 0) {
            this.onNewLine(this.offset + nl);
            nl = this.source.indexOf("\n", nl) + 1;
          }
        }
        return {
          type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
      }
      startBlockValue(parent) {
        switch (this.type) {
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return this.flowScalar(this.type);
          case "block-scalar-header":
            return {
              type: "block-scalar",
              offset: this.offset,
              indent: this.indent,
              props: [this.sourceToken],
              source: ""
            };
          case "flow-map-start":
          case "flow-seq-start":
            return {
              type: "flow-collection",
              offset: this.offset,
              indent: this.indent,
              start: this.sourceToken,
              items: [],
              end: []
            };
          case "seq-item-ind":
            return {
              type: "block-seq",
              offset: this.offset,
              indent: this.indent,
              items: [{ start: [this.sourceToken] }]
            };
          case "explicit-key-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            start.push(this.sourceToken);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, explicitKey: true }]
            };
          }
          case "map-value-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, key: null, sep: [this.sourceToken] }]
            };
          }
        }
        return null;
      }
      atIndentedComment(start, indent) {
        if (this.type !== "comment")
          return false;
        if (this.indent <= indent)
          return false;
        return start.every((st) => st.type === "newline" || st.type === "space");
      }
      *documentEnd(docEnd) {
        if (this.type !== "doc-mode") {
          if (docEnd.end)
            docEnd.end.push(this.sourceToken);
          else
            docEnd.end = [this.sourceToken];
          if (this.type === "newline")
            yield* this.pop();
        }
      }
      *lineEnd(token) {
        switch (this.type) {
          case "comma":
          case "doc-start":
          case "doc-end":
          case "flow-seq-end":
          case "flow-map-end":
          case "map-value-ind":
            yield* this.pop();
            yield* this.step();
            break;
          case "newline":
            this.onKeyLine = false;
          // fallthrough
          case "space":
          case "comment":
          default:
            if (token.end)
              token.end.push(this.sourceToken);
            else
              token.end = [this.sourceToken];
            if (this.type === "newline")
              yield* this.pop();
        }
      }
    };
    exports.Parser = Parser;
  }
});

// node_modules/yaml/dist/public-api.js
var require_public_api = __commonJS({
  "node_modules/yaml/dist/public-api.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var errors = require_errors();
    var log = require_log();
    var identity = require_identity();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    function parseOptions(options) {
      const prettyErrors = options.prettyErrors !== false;
      const lineCounter$1 = options.lineCounter || prettyErrors && new lineCounter.LineCounter() || null;
      return { lineCounter: lineCounter$1, prettyErrors };
    }
    function parseAllDocuments(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      const docs = Array.from(composer$1.compose(parser$1.parse(source)));
      if (prettyErrors && lineCounter2)
        for (const doc of docs) {
          doc.errors.forEach(errors.prettifyError(source, lineCounter2));
          doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
        }
      if (docs.length > 0)
        return docs;
      return Object.assign([], { empty: true }, composer$1.streamInfo());
    }
    function parseDocument2(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      let doc = null;
      for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
        if (!doc)
          doc = _doc;
        else if (doc.options.logLevel !== "silent") {
          doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()"));
          break;
        }
      }
      if (prettyErrors && lineCounter2) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter2));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
      }
      return doc;
    }
    function parse2(src, reviver, options) {
      let _reviver = void 0;
      if (typeof reviver === "function") {
        _reviver = reviver;
      } else if (options === void 0 && reviver && typeof reviver === "object") {
        options = reviver;
      }
      const doc = parseDocument2(src, options);
      if (!doc)
        return null;
      doc.warnings.forEach((warning) => log.warn(doc.options.logLevel, warning));
      if (doc.errors.length > 0) {
        if (doc.options.logLevel !== "silent")
          throw doc.errors[0];
        else
          doc.errors = [];
      }
      return doc.toJS(Object.assign({ reviver: _reviver }, options));
    }
    function stringify(value, replacer, options) {
      let _replacer = null;
      if (typeof replacer === "function" || Array.isArray(replacer)) {
        _replacer = replacer;
      } else if (options === void 0 && replacer) {
        options = replacer;
      }
      if (typeof options === "string")
        options = options.length;
      if (typeof options === "number") {
        const indent = Math.round(options);
        options = indent < 1 ? void 0 : indent > 8 ? { indent: 8 } : { indent };
      }
      if (value === void 0) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
          return void 0;
      }
      if (identity.isDocument(value) && !_replacer)
        return value.toString(options);
      return new Document.Document(value, _replacer, options).toString(options);
    }
    exports.parse = parse2;
    exports.parseAllDocuments = parseAllDocuments;
    exports.parseDocument = parseDocument2;
    exports.stringify = stringify;
  }
});

// node_modules/yaml/dist/index.js
var require_dist = __commonJS({
  "node_modules/yaml/dist/index.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var Schema = require_Schema();
    var errors = require_errors();
    var Alias = require_Alias();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var cst = require_cst();
    var lexer = require_lexer();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    var publicApi = require_public_api();
    var visit = require_visit();
    exports.Composer = composer.Composer;
    exports.Document = Document.Document;
    exports.Schema = Schema.Schema;
    exports.YAMLError = errors.YAMLError;
    exports.YAMLParseError = errors.YAMLParseError;
    exports.YAMLWarning = errors.YAMLWarning;
    exports.Alias = Alias.Alias;
    exports.isAlias = identity.isAlias;
    exports.isCollection = identity.isCollection;
    exports.isDocument = identity.isDocument;
    exports.isMap = identity.isMap;
    exports.isNode = identity.isNode;
    exports.isPair = identity.isPair;
    exports.isScalar = identity.isScalar;
    exports.isSeq = identity.isSeq;
    exports.Pair = Pair.Pair;
    exports.Scalar = Scalar.Scalar;
    exports.YAMLMap = YAMLMap.YAMLMap;
    exports.YAMLSeq = YAMLSeq.YAMLSeq;
    exports.CST = cst;
    exports.Lexer = lexer.Lexer;
    exports.LineCounter = lineCounter.LineCounter;
    exports.Parser = parser.Parser;
    exports.parse = publicApi.parse;
    exports.parseAllDocuments = publicApi.parseAllDocuments;
    exports.parseDocument = publicApi.parseDocument;
    exports.stringify = publicApi.stringify;
    exports.visit = visit.visit;
    exports.visitAsync = visit.visitAsync;
  }
});

// src/store/config-parse.ts
var config_parse_exports = {};
__export(config_parse_exports, {
  parseConfig: () => parseConfig
});
function parseConfig(file, text) {
  const doc = (0, import_yaml.parseDocument)(text, { prettyErrors: true, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError !== void 0)
    throw invalid(file, [{ key: null, problem: firstLine(yamlError.message) }], yamlError);
  let raw;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw invalid(
      file,
      [{ key: null, problem: firstLine(cause instanceof Error ? cause.message : String(cause)) }],
      cause
    );
  }
  if (raw === null || raw === void 0) return {};
  if (typeof raw !== "object" || Array.isArray(raw))
    throw invalid(file, [{ key: null, problem: "expected a mapping of settings (key: value lines)" }]);
  const parsed = Config.safeParse(raw);
  if (!parsed.success)
    throw invalid(
      file,
      parsed.error.issues.flatMap((issue2) => describeIssue(issue2, raw))
    );
  return parsed.data;
}
function invalid(file, issues, cause) {
  const text = issues.map((i) => i.key === null ? i.problem : `${i.key}: ${i.problem}`).join("; ");
  return new ConfigInvalidError(`${file}: ${text}`, { cause, details: { path: file, issues } });
}
function describeIssue(issue2, input) {
  const key = issue2.path.map(String).join(".");
  const at = (k) => k.length > 0 ? k : null;
  switch (issue2.code) {
    case "unrecognized_keys":
      return issue2.keys.map((name) => ({ key: key ? `${key}.${name}` : name, problem: "unknown key" }));
    case "invalid_value":
      return [{ key: at(key), problem: `expected one of ${issue2.values.map(String).join("|")}` }];
    case "invalid_type": {
      const value = valueAt(input, issue2.path);
      const expected = { int: "an integer", object: "a mapping", array: "a list" }[issue2.expected] ?? issue2.expected;
      return [
        {
          key: at(key),
          problem: value === void 0 ? `missing (expected ${expected})` : `expected ${expected}, got ${describeValue(value)}`
        }
      ];
    }
    case "too_small":
      if (issue2.origin === "string") return [{ key: at(key), problem: "must not be empty" }];
      return [{ key: at(key), problem: `must be ${issue2.inclusive ? ">=" : ">"} ${String(issue2.minimum)}` }];
    default:
      return [{ key: at(key), problem: issue2.message }];
  }
}
function valueAt(input, path) {
  let value = input;
  for (const part of path)
    value = value !== null && typeof value === "object" ? value[part] : void 0;
  return value;
}
function describeValue(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "number" && !Number.isInteger(value)) return `${value} (not an integer)`;
  return `${typeof value} ${JSON.stringify(value)}`;
}
function firstLine(message) {
  return (message.split("\n")[0] ?? message).replace(/:$/, "");
}
var import_yaml;
var init_config_parse = __esm({
  "src/store/config-parse.ts"() {
    "use strict";
    import_yaml = __toESM(require_dist(), 1);
    init_config();
    init_errors();
  }
});

// src/store/config.ts
import { readFile as readFile9 } from "node:fs/promises";
import { homedir as homedir3 } from "node:os";
import { dirname as dirname7, join as join18, resolve as resolve9 } from "node:path";
async function resolveSettings(opts) {
  const { config: config2, file } = await readConfig(opts);
  return applySettings(config2, file, opts);
}
function applySettings(config2, configFile, opts) {
  const cwd = opts.cwd ?? process.cwd();
  const home = resolve9(cwd, opts.home);
  const fromEnv = (opts.env ?? process.env).AGENTGATE_ARTIFACTS_DIR;
  const artifactsDir = opts.artifactsDir !== void 0 ? expandPath(cwd, opts.artifactsDir) : fromEnv ? expandPath(cwd, fromEnv) : config2.artifactsDir ?? layout(home).artifacts;
  return {
    home,
    configFile,
    artifactsDir,
    identity: opts.identity ?? config2.identity ?? DEFAULT_IDENTITY,
    onDirty: opts.onDirty ?? config2.onDirty ?? DEFAULT_ON_DIRTY,
    gitTimeoutMs: opts.gitTimeoutMs ?? config2.gitTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    lockTimeoutMs: opts.lockTimeoutMs ?? config2.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    checkpoints: {
      maxFileSizeBytes: config2.checkpoints?.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES,
      keep: config2.checkpoints?.keep ?? DEFAULT_KEEP,
      maxStoreBytes: config2.checkpoints?.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES
    },
    hooks: {
      timeoutMs: config2.hooks?.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
      recordPrompts: config2.hooks?.recordPrompts ?? false
    }
  };
}
async function readConfig(opts) {
  const explicit = opts.configFile !== void 0;
  const file = explicit ? resolve9(opts.cwd ?? process.cwd(), opts.configFile) : join18(resolve9(opts.home), "config.yaml");
  let text;
  try {
    text = await readFile9(file, "utf8");
  } catch (cause) {
    const code2 = cause.code;
    if (code2 === "ENOENT" && !explicit) return { config: {}, file: null };
    const problem = code2 === "ENOENT" ? "file not found" : `unreadable (${errnoOf(cause)})`;
    throw new ConfigInvalidError(`${file}: ${problem}`, {
      cause,
      details: { path: file, issues: [{ key: null, problem }] }
    });
  }
  const { parseConfig: parseConfig2 } = await Promise.resolve().then(() => (init_config_parse(), config_parse_exports));
  const config2 = parseConfig2(file, text);
  if (config2.artifactsDir !== void 0) config2.artifactsDir = expandPath(dirname7(file), config2.artifactsDir);
  return { config: config2, file };
}
function expandPath(base, value) {
  if (value === "~") return homedir3();
  if (value.startsWith("~/")) return join18(homedir3(), value.slice(2));
  return resolve9(base, value);
}
var init_config2 = __esm({
  "src/store/config.ts"() {
    "use strict";
    init_config();
    init_errors();
    init_atomic();
    init_lock();
    init_paths();
  }
});

// src/cli/context.ts
var context_exports = {};
__export(context_exports, {
  Context: () => Context
});
import { resolve as resolve10 } from "node:path";
var Context;
var init_context = __esm({
  "src/cli/context.ts"() {
    "use strict";
    init_config2();
    init_paths();
    init_snapshotter();
    Context = class _Context {
      constructor(workspace, settings, json, workspaceGiven) {
        this.workspace = workspace;
        this.settings = settings;
        this.json = json;
        this.workspaceGiven = workspaceGiven;
      }
      workspace;
      settings;
      json;
      workspaceGiven;
      snapshotterInstance = null;
      static async create(values) {
        const home = resolveHome(values.home);
        const settings = await resolveSettings({
          home,
          configFile: values.config,
          artifactsDir: values["artifacts-dir"]
        });
        return new _Context(
          resolve10(values.workspace ?? "."),
          settings,
          values.json,
          values.workspace !== void 0
        );
      }
      /** What the run-snapshot services (snapshotter, sharing) take from the settings and from -C. */
      get serviceOptions() {
        const { home, artifactsDir, identity, gitTimeoutMs, lockTimeoutMs } = this.settings;
        return {
          home,
          artifactsDir,
          identity,
          gitTimeoutMs,
          lockTimeoutMs,
          ...this.workspaceGiven ? { localWorkspace: this.workspace } : {}
        };
      }
      get snapshotter() {
        this.snapshotterInstance ??= new Snapshotter({ ...this.serviceOptions, onDirty: this.settings.onDirty });
        return this.snapshotterInstance;
      }
    };
  }
});

// src/cli/json-stream.ts
import { createReadStream as createReadStream3 } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline as pipeline2 } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
function jsonStringBody() {
  const decoder = new StringDecoder("utf8");
  const escape = (text) => text.length === 0 ? "" : JSON.stringify(text).slice(1, -1);
  return new Transform({
    transform(chunk, _encoding, done) {
      done(null, escape(decoder.write(chunk)));
    },
    flush(done) {
      done(null, escape(decoder.end()));
    }
  });
}
async function writeStreamedJson(doc, out) {
  async function* parts() {
    yield doc.prefix;
    yield* createReadStream3(doc.file).pipe(jsonStringBody());
    yield doc.suffix;
  }
  await pipeline2(Readable.from(parts()), out, { end: false });
}
var init_json_stream = __esm({
  "src/cli/json-stream.ts"() {
    "use strict";
  }
});

// src/cli/serve.ts
var serve_exports = {};
__export(serve_exports, {
  serve: () => serve
});
async function serve(input, output, opts) {
  const max = SERVE_MAX_LINE_BYTES;
  let parts = [];
  let pending = 0;
  let skipping = false;
  const handle = async (line) => {
    if (line.length === 0 || line.length === 1 && line[0] === 13) return;
    await respond(output, line, opts);
  };
  for await (const chunk of input) {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (skipping) {
        skipping = false;
      } else if (pending + piece.length > max) {
        await tooLong(output, max);
      } else {
        await handle(Buffer.concat([...parts, piece]));
      }
      parts = [];
      pending = 0;
    }
    const rest = chunk.subarray(start);
    if (skipping || rest.length === 0) continue;
    if (pending + rest.length > max) {
      await tooLong(output, max);
      skipping = true;
      parts = [];
      pending = 0;
    } else {
      parts.push(Buffer.from(rest));
      pending += rest.length;
    }
  }
  if (!skipping && pending > 0) await handle(Buffer.concat(parts));
}
async function tooLong(output, max) {
  await write(
    output,
    errorLine(
      null,
      new InvalidRequestError(`request line longer than ${max} bytes; send one JSON request per line`)
    )
  );
}
async function respond(output, line, opts) {
  let id = null;
  try {
    let body;
    try {
      body = JSON.parse(line.toString("utf8"));
    } catch {
      throw new InvalidRequestError(
        'a request line must be one JSON object: {"id", "command", "args", "options"}'
      );
    }
    const maybeId = ServeRequestId.safeParse(body?.id);
    if (maybeId.success) id = maybeId.data;
    const parsed = ServeRequest.safeParse(body);
    if (!parsed.success) {
      const issue2 = parsed.error.issues[0];
      throw new InvalidRequestError(
        `invalid request: ${issue2 ? `${issue2.path.join(".") || "request"}: ${issue2.message}` : "wrong fields"}; expected {"id", "command", "args", "options"}`
      );
    }
    const result = await execute(parsed.data, opts);
    await writeResult(output, parsed.data.id, result);
  } catch (error2) {
    await write(output, errorLine(id, error2));
  }
}
async function execute(request, opts) {
  const command = request.command === "serve" ? void 0 : await loadCommand(request.command);
  if (!command) {
    throw new UsageError(
      `unknown command "${request.command.slice(0, 100)}" for serve; it takes the CLI's commands except serve`,
      { details: { command: request.command.slice(0, 100) } }
    );
  }
  const argv = [];
  const given = { ...request.options };
  for (const name of INHERITED)
    if (!(name in given) && typeof opts.defaults[name] === "string") given[name] = opts.defaults[name];
  for (const [name, value] of Object.entries(given)) {
    if (name === "help" || name === "version")
      throw new UsageError(`${name} is not served; run "agentgate-snapshot <command> --${name}"`);
    if (value === true) argv.push(`--${name}`);
    else if (value !== false) argv.push(`--${name}=${String(value)}`);
  }
  argv.push("--", ...request.args);
  const { values, positionals } = parseCommandLine(command, argv);
  const ctx = await Context.create({ ...values, json: true });
  return command.run(ctx, { ...values, json: true }, positionals);
}
async function writeResult(output, id, result) {
  const head = `{"id":${JSON.stringify(id)},"result":`;
  if ("json" in result) {
    const exit = result.exitCode ? `,"exitCode":${result.exitCode}` : "";
    await write(output, `${head}${JSON.stringify(result.json ?? null)}${exit}}
`);
    return;
  }
  if ("silent" in result) {
    await write(output, `${head}null}
`);
    return;
  }
  try {
    if ("streamJson" in result) {
      const flat = (text) => text.replace(/\n\s*/g, "");
      await writeStreamedJson(
        {
          prefix: head + flat(result.streamJson.prefix),
          file: result.streamJson.file,
          suffix: `${flat(result.streamJson.suffix)}}
`
        },
        output
      );
    } else {
      await writeStreamedJson({ prefix: `${head}"`, file: result.streamFile, suffix: '"}\n' }, output);
    }
  } finally {
    await result.cleanup?.();
  }
}
function errorLine(id, error2) {
  const { code: code2, message } = isAgentgateError(error2) ? error2 : {
    code: "INTERNAL",
    message: `unexpected failure: ${error2 instanceof Error ? error2.message : String(error2)}; please report it with the request you sent`
  };
  return `${JSON.stringify({ id, error: { code: code2, message } })}
`;
}
function write(output, text) {
  return new Promise((resolve13, reject) => {
    output.write(text, (error2) => error2 ? reject(error2) : resolve13());
  });
}
var INHERITED;
var init_serve2 = __esm({
  "src/cli/serve.ts"() {
    "use strict";
    init_serve();
    init_errors();
    init_commands();
    init_context();
    init_json_stream();
    init_spec();
    INHERITED = ["workspace", "home", "artifacts-dir", "config"];
  }
});

// src/cli/commands/serve.ts
var serve_exports2 = {};
__export(serve_exports2, {
  SERVE_COMMAND: () => SERVE_COMMAND
});
var SERVE_COMMAND;
var init_serve3 = __esm({
  "src/cli/commands/serve.ts"() {
    "use strict";
    init_spec();
    SERVE_COMMAND = defineCommand({
      name: "serve",
      usage: "serve",
      summary: 'Answer JSON-lines requests on stdin ({"id","command","args","options"} -> {"id","result"} or {"id","error"}) until end of input.',
      description: "Each request runs like the command line with --json: same parser, same checks, same error codes. serve's own -C, --home, --artifacts-dir and --config are the defaults of every request that does not give its own.",
      options: {},
      positionals: { required: [] },
      examples: [`serve --home "$AGENTGATE_HOME" < requests.jsonl`],
      async run(_ctx, values) {
        const { serve: serve2 } = await Promise.resolve().then(() => (init_serve2(), serve_exports));
        await serve2(process.stdin, process.stdout, { defaults: values });
        return { silent: true };
      }
    });
  }
});

// src/git/parsers/ls-files-tagged.ts
function parseCandidateListing(text) {
  const out = { untracked: [], modified: [], nestedRepos: [] };
  const seenModified = /* @__PURE__ */ new Set();
  for (const record2 of splitNul(text)) {
    const tag = record2.slice(0, 2);
    const path = record2.slice(2);
    if (path === "") throw unparseable("ls-files -t", "record without a path", record2);
    if (tag === "? ") {
      if (path.endsWith("/")) out.nestedRepos.push(path.slice(0, -1));
      else out.untracked.push(path);
    } else if (tag === "C " || tag === "R ") {
      if (!seenModified.has(path)) out.modified.push(path);
      seenModified.add(path);
    } else {
      throw unparseable("ls-files -t", `unexpected tag ${JSON.stringify(tag)}`, record2);
    }
  }
  return out;
}
var init_ls_files_tagged = __esm({
  "src/git/parsers/ls-files-tagged.ts"() {
    "use strict";
    init_nul_records();
  }
});

// src/git/checkpoint-index.ts
function excludeSpec(path) {
  return `:(exclude,literal)${path}`;
}
function nulInput(items) {
  return Buffer.concat(items.map((p) => Buffer.concat([encodeBytes(p), Buffer.from([0])])));
}
async function listCaptureCandidates(repo, excluded) {
  const res = await runGitBuffer(repo, [
    "ls-files",
    "-z",
    "-t",
    "--others",
    "--modified",
    "--exclude-standard",
    "--",
    ".",
    ...excluded.map(excludeSpec)
  ]);
  return parseCandidateListing(decodeBytes(res.stdout));
}
async function listIgnoredTracked(repo) {
  const res = await runGitBuffer(repo, ["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"]);
  return splitNul(decodeBytes(res.stdout));
}
async function unstagePaths(repo, paths) {
  if (paths.length === 0) return;
  await runGit(
    repo,
    [
      "--literal-pathspecs",
      "rm",
      "--cached",
      "-r",
      "-f",
      "-q",
      "--ignore-unmatch",
      "--pathspec-from-file=-",
      "--pathspec-file-nul"
    ],
    {
      input: nulInput(paths)
    }
  );
}
async function stageWorkspace(repo, excluded) {
  await runGit(repo, [...STAGING_CONFIG, "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], {
    input: nulInput([".", ...excluded.map(excludeSpec)])
  });
}
async function stagePaths(repo, paths) {
  if (paths.length === 0) return;
  await runGit(repo, [...STAGING_CONFIG, "update-index", "--add", "--remove", "--replace", "-z", "--stdin"], {
    input: nulInput(paths)
  });
}
async function writeTree(repo) {
  const res = await runGit(repo, ["write-tree"]);
  return assertGitId(res.stdout.trim(), "write-tree");
}
async function ignoredPaths(repo, paths) {
  if (paths.length === 0) return /* @__PURE__ */ new Set();
  const res = await runGitBuffer(repo, ["check-ignore", "-z", "--stdin", "--no-index"], {
    input: nulInput(paths),
    okExitCodes: [1]
  });
  return new Set(splitNul(decodeBytes(res.stdout)));
}
var init_checkpoint_index = __esm({
  "src/git/checkpoint-index.ts"() {
    "use strict";
    init_path_bytes();
    init_hardening();
    init_ids2();
    init_ls_files_tagged();
    init_nul_records();
    init_runner();
  }
});

// src/git/parsers/count-objects.ts
function parseCountObjects(text) {
  const values = /* @__PURE__ */ new Map();
  for (const line of text.split("\n")) {
    const match = /^([a-z-]+): (\d+)$/.exec(line.trim());
    if (match) values.set(match[1], Number(match[2]));
  }
  const get = (key) => {
    const value = values.get(key);
    if (value === void 0) throw unparseable("count-objects", `no "${key}" line`, text);
    return value;
  };
  return {
    loose: get("count"),
    looseBytes: get("size") * 1024,
    packs: get("packs"),
    packBytes: get("size-pack") * 1024,
    garbageBytes: get("size-garbage") * 1024
  };
}
var init_count_objects = __esm({
  "src/git/parsers/count-objects.ts"() {
    "use strict";
    init_nul_records();
  }
});

// src/git/checkpoint-repo.ts
import { mkdir as mkdir6, realpath as realpath4, writeFile as writeFile5 } from "node:fs/promises";
import { join as join19 } from "node:path";
function checkpointRepo(p) {
  return {
    cwd: p.workspace,
    gitDir: p.gitDir,
    workTree: p.workspace,
    indexFile: p.indexFile,
    config: p.excludesFile === null ? [] : [`core.excludesFile=${p.excludesFile}`],
    ...p.identity === void 0 ? {} : { identity: p.identity },
    ...p.timeoutMs === void 0 ? {} : { timeoutMs: p.timeoutMs },
    ...p.signal === void 0 ? {} : { signal: p.signal }
  };
}
async function initCheckpointRepo(repo) {
  await mkdir6(repo.gitDir, { recursive: true });
  await runGit(repo, ["init", "--quiet"]);
  for (const [key, value] of REPO_CONFIG) await runGit(repo, ["config", key, value]);
  await mkdir6(join19(repo.gitDir, "info"), { recursive: true });
  await writeFile5(join19(repo.gitDir, "info", "attributes"), REPO_ATTRIBUTES);
}
async function probeWorkspace(dir, opts = {}) {
  const res = await runGit({ cwd: dir, ...opts }, [
    "rev-parse",
    "--path-format=absolute",
    "--show-toplevel",
    "--git-path",
    "info/exclude",
    "--git-dir"
  ]).catch((cause) => {
    if (cause instanceof GitFailedError) return null;
    throw cause;
  });
  const [top, exclude, gitDir] = res === null ? [] : res.stdout.split("\n");
  if (!top || !exclude || !gitDir) return { root: dir, isRepository: false, excludesFile: null };
  const root = await realpath4(top);
  await assertOwnWorkTree(await realpath4(dir), root, gitDir);
  return { root, isRepository: true, excludesFile: exclude };
}
async function rootCommit(root, opts = {}) {
  const res = await runGit({ cwd: root, ...opts }, ["rev-list", "--max-parents=0", "HEAD", "--"], {
    okExitCodes: [128]
  });
  if (res.exitCode !== 0) return null;
  const roots = res.stdout.split("\n").filter((line) => OBJECT_ID_PATTERN.test(line));
  return roots[0] ?? null;
}
async function gcCheckpointRepo(repo, pruneAge) {
  await runGit(repo, ["gc", "--quiet", `--prune=${pruneAge}`]);
}
async function countObjects(repo) {
  return parseCountObjects((await runGit(repo, ["count-objects", "-v"])).stdout);
}
async function packLooseObjects(repo) {
  await runGit(repo, ["repack", "-d", "-q"]);
}
var REPO_CONFIG, REPO_ATTRIBUTES;
var init_checkpoint_repo = __esm({
  "src/git/checkpoint-repo.ts"() {
    "use strict";
    init_ids();
    init_errors();
    init_count_objects();
    init_repo();
    init_runner();
    REPO_CONFIG = [
      // Checkpoints are byte-exact: no line-ending conversion in either direction.
      ["core.autocrlf", "false"],
      ["core.quotePath", "false"],
      // No reflogs: a removed checkpoint ref must not keep its objects alive past retention.
      ["core.logAllRefUpdates", "false"],
      // We run gc ourselves, under our lock, with temporary packs swept afterwards.
      ["gc.auto", "0"],
      ["core.symlinks", "true"]
    ];
    REPO_ATTRIBUTES = "* -text -eol -crlf -ident -filter -working-tree-encoding\n";
  }
});

// src/git/parsers/cat-file-batch.ts
function parseCatFileBatch(buf) {
  const out = [];
  let pos = 0;
  while (pos < buf.length) {
    const eol = buf.indexOf(10, pos);
    if (eol < 0) throw unparseable("cat-file --batch", "output ends inside a header");
    const header = buf.toString("utf8", pos, eol);
    pos = eol + 1;
    const missing = /^(.*) (missing|ambiguous)$/.exec(header);
    if (missing) {
      out.push({ kind: "missing", name: missing[1] ?? "" });
      continue;
    }
    const found = FOUND2.exec(header);
    if (!found) throw unparseable("cat-file --batch", "malformed header", header);
    const size = Number(found[3]);
    if (pos + size + 1 > buf.length || buf[pos + size] !== 10)
      throw unparseable("cat-file --batch", `object ${found[1]} is truncated`);
    out.push({
      kind: "found",
      oid: found[1] ?? "",
      type: found[2] ?? "",
      content: buf.subarray(pos, pos + size)
    });
    pos += size + 1;
  }
  return out;
}
var FOUND2;
var init_cat_file_batch = __esm({
  "src/git/parsers/cat-file-batch.ts"() {
    "use strict";
    init_ids();
    init_nul_records();
    FOUND2 = new RegExp(`^(${OBJECT_ID_SOURCE}) ([a-z]+) (\\d+)$`);
  }
});

// src/git/parsers/diff-pairs.ts
function parseDiffPairs(output) {
  const tokens = new ZTokens(output, "diff-tree --raw --numstat");
  const raw = [];
  while (atRawRecord(tokens)) raw.push(readRawRecord(tokens));
  const pairs = raw.map((entry) => {
    if (tokens.done) throw tokens.malformed(`${raw.length} raw records but fewer numstat records`);
    const num = readNumstatRecord(tokens);
    if (num.path !== entry.path)
      throw tokens.malformed(
        `raw record for ${JSON.stringify(entry.path)} paired with numstat record for ${JSON.stringify(num.path)}`
      );
    return { ...entry, insertions: num.insertions, deletions: num.deletions, binary: num.binary };
  });
  if (!tokens.done) throw tokens.malformed(`more numstat records than the ${raw.length} raw records`);
  return pairs;
}
var init_diff_pairs = __esm({
  "src/git/parsers/diff-pairs.ts"() {
    "use strict";
    init_diff_raw();
    init_diff_numstat();
    init_z_tokens();
  }
});

// src/git/parsers/ls-tree.ts
function parseLsTree(text) {
  const out = /* @__PURE__ */ new Map();
  for (const record2 of splitNul(text)) {
    const tab = record2.indexOf("	");
    const head = tab < 0 ? [] : record2.slice(0, tab).split(" ");
    const [mode, type, oid] = head;
    if (head.length !== 3 || mode === void 0 || type === void 0 || oid === void 0 || !OBJECT_ID_PATTERN.test(oid)) {
      throw unparseable("ls-tree", "malformed record", record2);
    }
    const path = record2.slice(tab + 1);
    out.set(path, { mode, type, oid, path });
  }
  return out;
}
var init_ls_tree = __esm({
  "src/git/parsers/ls-tree.ts"() {
    "use strict";
    init_ids();
    init_nul_records();
  }
});

// src/git/checkpoint-trees.ts
function isCheckpointRevision(rev) {
  return REVISION.test(rev) && !rev.includes("..");
}
async function resolveTreeId(repo, rev) {
  if (!isCheckpointRevision(rev)) return null;
  const res = await runGit(repo, ["rev-parse", "--verify", "--quiet", `${rev}^{tree}`], {
    okExitCodes: [1, 128]
  });
  if (res.exitCode !== 0) return null;
  return assertGitId(res.stdout.trim(), "rev-parse");
}
async function listTree(repo, rev) {
  if (!isCheckpointRevision(rev)) return null;
  try {
    const res = await runGitBuffer(repo, ["ls-tree", "-r", "-z", "--full-tree", rev]);
    return parseLsTree(decodeBytes(res.stdout));
  } catch (cause) {
    if (cause instanceof GitFailedError && /not a valid object name|not a tree object/i.test(String(cause.details.stderr)))
      return null;
    throw cause;
  }
}
async function changedPaths(repo, from, to) {
  const res = await runGitBuffer(repo, ["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to]);
  return splitNul(decodeBytes(res.stdout));
}
async function diffTrees(repo, from, to) {
  const res = await runGitBuffer(repo, [
    "diff-tree",
    "-r",
    "-z",
    "--no-renames",
    "--raw",
    "--numstat",
    "--no-ext-diff",
    "--no-textconv",
    from,
    to
  ]);
  return parseDiffPairs(decodeBytes(res.stdout));
}
async function unifiedTreeDiff(repo, from, to, leaveOut = []) {
  const specs = leaveOut.length === 0 ? [] : ["--", ".", ...leaveOut.map(excludeSpec)];
  const res = await runGitBuffer(repo, [
    "diff-tree",
    "-r",
    "-p",
    "--binary",
    "--full-index",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    from,
    to,
    ...specs
  ]);
  return res.stdout;
}
async function readObjects(repo, oids) {
  const out = /* @__PURE__ */ new Map();
  const unique = [...new Set(oids)];
  if (unique.length === 0) return out;
  const res = await runGitBuffer(repo, ["cat-file", "--batch"], {
    input: unique.map((o) => `${o}
`).join("")
  });
  for (const obj of parseCatFileBatch(res.stdout)) {
    if (obj.kind === "missing") {
      throw new StoreCorruptError(`object ${obj.name} is missing from the checkpoint store ${repo.gitDir}`, {
        details: { gitDir: repo.gitDir, object: obj.name }
      });
    }
    out.set(obj.oid, obj.content);
  }
  return out;
}
var REVISION;
var init_checkpoint_trees = __esm({
  "src/git/checkpoint-trees.ts"() {
    "use strict";
    init_errors();
    init_path_bytes();
    init_checkpoint_index();
    init_ids2();
    init_cat_file_batch();
    init_diff_pairs();
    init_ls_tree();
    init_nul_records();
    init_runner();
    REVISION = /^([0-9a-f]{4,64}|refs\/checkpoints(-meta)?\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*)$/;
  }
});

// src/git/user-ignore.ts
import { access as access2 } from "node:fs/promises";
import { isAbsolute as isAbsolute5, join as join20 } from "node:path";
async function userExcludesFile(o) {
  const xdg = o.xdgConfigHome && isAbsolute5(o.xdgConfigHome) ? o.xdgConfigHome : join20(o.home, ".config");
  let configured = null;
  for (const file of userConfigFiles({
    HOME: o.home,
    ...o.xdgConfigHome ? { XDG_CONFIG_HOME: o.xdgConfigHome } : {}
  }).global) {
    if (!await exists3(file)) continue;
    const res = await runGit(
      {
        cwd: o.cwd,
        ...o.identity ? { identity: o.identity } : {},
        ...o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}
      },
      ["config", "--file", file, "--get", "core.excludesFile"],
      { okExitCodes: [1] }
    );
    const value = res.exitCode === 0 ? res.stdout.trim() : "";
    if (value !== "") configured = value;
  }
  const path = configured === null ? join20(xdg, "git", "ignore") : expandHome(configured, o.home);
  return isAbsolute5(path) && await exists3(path) ? path : null;
}
function expandHome(path, home) {
  return path === "~" ? home : path.startsWith("~/") ? join20(home, path.slice(2)) : path;
}
async function exists3(path) {
  return access2(path).then(
    () => true,
    () => false
  );
}
var init_user_ignore = __esm({
  "src/git/user-ignore.ts"() {
    "use strict";
    init_hardening();
    init_runner();
  }
});

// src/fs/place.ts
import { randomBytes as randomBytes5 } from "node:crypto";
import { mkdir as mkdir7, open as open3, rename as rename4, rm as rm12, stat as stat9, symlink } from "node:fs/promises";
import { dirname as dirname8, join as join21, sep as sep5 } from "node:path";
function tempName() {
  return `.agentgate-${process.pid}-${randomBytes5(6).toString("hex")}.tmp`;
}
async function chooseStagingDir(root, preferred) {
  await mkdir7(preferred, { recursive: true });
  const [a, b] = await Promise.all([stat9(root), stat9(preferred)]);
  return a.dev === b.dev ? preferred : root;
}
async function placeFiles(root, stagingDir, items) {
  const dirs = /* @__PURE__ */ new Set();
  for (const item of items) {
    const parent = dirname8(item.dest);
    await mkdir7(fsPath(parent), { recursive: true });
    await placeOne(item, join21(stagingDir, tempName()));
    for (let d = parent; d.length >= root.length && d.startsWith(root); d = dirname8(d)) {
      if (dirs.has(d)) break;
      dirs.add(d);
      if (d === root || dirname8(d) === d) break;
    }
  }
  for (const d of dirs) await fsyncDir(fsPath(d));
}
async function placeOne(item, temp) {
  try {
    await writeTemp(item, temp);
    await rename4(temp, fsPath(item.dest));
    return;
  } catch (error2) {
    await rm12(temp, { force: true });
    if (error2.code !== "EXDEV") throw error2;
  }
  const beside = `${dirname8(item.dest)}${sep5}${tempName()}`;
  try {
    await writeTemp(item, fsPath(beside));
    await rename4(fsPath(beside), fsPath(item.dest));
  } catch (error2) {
    await rm12(fsPath(beside), { force: true });
    throw error2;
  }
}
async function writeTemp(item, temp) {
  if (item.kind === "symlink") {
    await symlink(item.content, temp);
    return;
  }
  const handle = await open3(temp, "wx", item.kind === "executable" ? 511 : 438);
  try {
    await handle.writeFile(item.content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
var PLACE_TEMP_NAME;
var init_place = __esm({
  "src/fs/place.ts"() {
    "use strict";
    init_atomic();
    init_path_bytes();
    PLACE_TEMP_NAME = /^\.agentgate-(\d+)-[0-9a-f]{12}\.tmp$/;
  }
});

// src/checkpoints/workspace-paths.ts
import { realpath as realpath5 } from "node:fs/promises";
import { basename as basename4, dirname as dirname9, join as join22, relative as relative4, resolve as resolve11, sep as sep6 } from "node:path";
function toGitPath(root, abs) {
  return relative4(root, abs).split(sep6).join("/");
}
function toAbsolute(root, gitPath) {
  return gitPath === "" ? root : join22(root, ...gitPath.split("/"));
}
async function physical(abs) {
  const tail = [basename4(abs)];
  let head = dirname9(abs);
  for (; ; ) {
    try {
      return join22(await realpath5(head), ...tail.reverse());
    } catch {
      const up = dirname9(head);
      if (up === head) return abs;
      tail.push(basename4(head));
      head = up;
    }
  }
}
async function toWorkspaceGitPath(root, input, forbidden) {
  const refuse = (why) => {
    throw new PathOutsideWorkspaceError(`${JSON.stringify(input)} ${why}; give a path inside ${root}`, {
      details: { path: input, workspace: root }
    });
  };
  if (input === "")
    throw new InvalidArgumentError(
      "an empty path names nothing; give a file or directory inside the workspace (or no path to mean all)",
      { details: { path: input } }
    );
  if (input.includes("\0")) refuse("is not a usable path");
  const abs = resolve11(root, input);
  const real = abs === root ? root : await physical(abs);
  if (!isInside(root, real)) refuse("is outside the workspace");
  const gitPath = toGitPath(root, real);
  if (gitPath.split("/").some((c) => c.toLowerCase() === ".git"))
    refuse("is inside the repository's .git directory");
  if (forbidden.some((dir) => isInside(dir, real)))
    refuse("is inside agentgate's own data (its home or an excluded directory)");
  return gitPath;
}
function isUnder(path, prefix) {
  return prefix === "" || path === prefix || path.startsWith(`${prefix}/`);
}
var init_workspace_paths = __esm({
  "src/checkpoints/workspace-paths.ts"() {
    "use strict";
    init_errors();
    init_repo();
  }
});

// src/checkpoints/apply.ts
import { lstat as lstat3, rmdir as rmdir2, unlink } from "node:fs/promises";
import { dirname as dirname10 } from "node:path";
async function kindOf(abs) {
  try {
    const st = await lstat3(fsPath(abs));
    if (st.isDirectory()) return "dir";
    if (st.isSymbolicLink()) return "link";
    return st.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}
async function leadingDirsAreReal(root, path, cache2) {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i += 1) {
    const dir = parts.slice(0, i).join("/");
    let kind = cache2.get(dir);
    if (kind === void 0) {
      kind = await kindOf(toAbsolute(root, dir));
      cache2.set(dir, kind);
    }
    if (kind === "missing") return true;
    if (kind !== "dir") return false;
  }
  return true;
}
async function applyPlan(ctx, plan) {
  const out = { written: [], deleted: [], leftAlone: [] };
  const blocked = (p) => ctx.blocked.some((b) => isUnder(p, b));
  await applyDeletes(
    ctx,
    plan.deletes.filter((p) => !blocked(p)),
    out
  );
  for (const p of [...plan.deletes, ...plan.writes.map((w) => w.path)]) if (blocked(p)) out.leftAlone.push(p);
  for (const p of plan.uncovered)
    if (await kindOf(toAbsolute(ctx.root, p)) !== "missing") out.leftAlone.push(p);
  const cache2 = /* @__PURE__ */ new Map();
  const ready = [];
  const fresh = [];
  for (const entry of plan.writes) {
    if (blocked(entry.path)) continue;
    const kind = await kindOf(toAbsolute(ctx.root, entry.path));
    const fits = await leadingDirsAreReal(ctx.root, entry.path, cache2) && kind !== "dir" && kind !== "other";
    if (!fits || kind !== "missing" && !ctx.current.has(entry.path)) out.leftAlone.push(entry.path);
    else (kind === "missing" ? fresh : ready).push(entry);
  }
  const ignored = await ignoredPaths(
    ctx.repo,
    fresh.map((e) => e.path)
  );
  for (const entry of fresh) {
    if (ignored.has(entry.path)) out.leftAlone.push(entry.path);
    else ready.push(entry);
  }
  await writeEntries(ctx, ready);
  out.written.push(...ready.map((e) => e.path).sort());
  out.leftAlone.sort();
  return out;
}
async function applyDeletes(ctx, paths, out) {
  const cache2 = /* @__PURE__ */ new Map();
  const emptied = /* @__PURE__ */ new Set();
  for (const path of paths) {
    const abs = toAbsolute(ctx.root, path);
    const kind = await kindOf(abs);
    if (kind === "missing") continue;
    if (kind !== "file" && kind !== "link" || !await leadingDirsAreReal(ctx.root, path, cache2)) {
      out.leftAlone.push(path);
      continue;
    }
    await unlink(fsPath(abs));
    out.deleted.push(path);
    const slash = path.lastIndexOf("/");
    if (slash > 0) emptied.add(path.slice(0, slash));
  }
  await removeEmptyDirs(ctx.root, emptied);
  for (const dir of new Set(out.deleted.map((path) => dirname10(toAbsolute(ctx.root, path)))))
    await fsyncDir(fsPath(dir));
}
async function writeEntries(ctx, entries) {
  if (entries.length === 0) return;
  const staging = await chooseStagingDir(ctx.root, ctx.tempDir);
  for (let i = 0; i < entries.length; i += WRITE_BATCH) {
    const batch = entries.slice(i, i + WRITE_BATCH);
    const blobs = await readObjects(
      ctx.repo,
      batch.map((e) => e.oid)
    );
    const items = batch.map((e) => ({
      dest: toAbsolute(ctx.root, e.path),
      kind: e.mode === "120000" ? "symlink" : e.mode === "100755" ? "executable" : "file",
      content: blobs.get(e.oid) ?? Buffer.alloc(0)
    }));
    try {
      await placeFiles(ctx.root, staging, items);
    } catch (cause) {
      throw new WriteFailedError(
        `could not write files into ${ctx.root} (${errnoOf(cause)}); check free space and permissions, then retry`,
        { cause, details: { workspace: ctx.root } }
      );
    }
  }
}
async function removeEmptyDirs(root, dirs) {
  const all = /* @__PURE__ */ new Set();
  for (const dir of dirs) {
    const parts = dir.split("/");
    for (let i = parts.length; i > 0; i -= 1) all.add(parts.slice(0, i).join("/"));
  }
  const deepestFirst = [...all].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of deepestFirst) {
    await rmdir2(fsPath(toAbsolute(root, dir))).catch(() => void 0);
  }
}
var WRITE_BATCH;
var init_apply = __esm({
  "src/checkpoints/apply.ts"() {
    "use strict";
    init_errors();
    init_atomic();
    init_path_bytes();
    init_place();
    init_checkpoint_index();
    init_checkpoint_trees();
    init_workspace_paths();
    WRITE_BATCH = 2048;
  }
});

// src/checkpoints/skip-rules.ts
import { constants } from "node:fs";
import { access as access3, lstat as lstat4 } from "node:fs/promises";
async function findSkipped(root, listing, maxBytes) {
  const skipped = listing.nestedRepos.map((path) => ({
    path,
    reason: "nested-repository",
    size: null,
    indexed: false
  }));
  const candidates = [
    ...listing.untracked.map((path) => ({ path, indexed: false })),
    ...listing.modified.map((path) => ({ path, indexed: true }))
  ];
  for (let i = 0; i < candidates.length; i += STAT_BATCH) {
    const batch = candidates.slice(i, i + STAT_BATCH);
    const shapes = await Promise.all(batch.map((c) => fileShape(toAbsolute(root, c.path))));
    batch.forEach((c, k) => {
      const shape = shapes[k];
      if (shape === void 0 || shape === null) return;
      if (shape === "unreadable")
        skipped.push({ path: c.path, reason: "unreadable", size: null, indexed: c.indexed });
      else if (shape > maxBytes)
        skipped.push({ path: c.path, reason: "too-large", size: shape, indexed: c.indexed });
    });
  }
  return skipped.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
async function fileShape(path) {
  try {
    const st = await lstat4(fsPath(path));
    if (st.isFIFO() || st.isSocket() || st.isCharacterDevice() || st.isBlockDevice()) return "unreadable";
    if (!st.isFile()) return null;
    const readable = await access3(fsPath(path), constants.R_OK).then(
      () => true,
      () => false
    );
    return readable ? st.size : "unreadable";
  } catch {
    return null;
  }
}
var STAT_BATCH;
var init_skip_rules = __esm({
  "src/checkpoints/skip-rules.ts"() {
    "use strict";
    init_path_bytes();
    init_workspace_paths();
    STAT_BATCH = 64;
  }
});

// src/checkpoints/capture.ts
import { lstat as lstat5, realpath as realpath6 } from "node:fs/promises";
import { dirname as dirname11 } from "node:path";
async function captureWorkspace(ctx) {
  const [listing, ignoredTracked] = await Promise.all([
    listCaptureCandidates(ctx.repo, ctx.excluded),
    listIgnoredTracked(ctx.repo)
  ]);
  const skipped = await findSkipped(ctx.root, listing, ctx.maxFileSizeBytes);
  await unstagePaths(ctx.repo, [...ignoredTracked, ...skipped.filter((s) => s.indexed).map((s) => s.path)]);
  const leaveOut = /* @__PURE__ */ new Set([...ignoredTracked, ...skipped.map((s) => s.path)]);
  const changed = [...listing.untracked, ...listing.modified].filter((p) => !leaveOut.has(p));
  if (changed.length <= FEW_CHANGES && !await unusualShapes(ctx.root, changed))
    await stagePaths(ctx.repo, changed);
  else await stageWorkspace(ctx.repo, [...ctx.excluded, ...skipped.map((s) => s.path)]);
  return { treeId: await writeTree(ctx.repo), skipped };
}
async function unusualShapes(root, paths) {
  const parents = [...new Set(paths.map((p) => dirname11(toAbsolute(root, p))))];
  const [dirs, links] = await Promise.all([
    Promise.all(
      paths.map(
        (p) => lstat5(fsPath(toAbsolute(root, p))).then(
          (st) => st.isDirectory(),
          () => false
        )
      )
    ),
    Promise.all(
      parents.map(
        (d) => realpath6(fsPath(d)).then(
          (real) => real.toString() !== d,
          () => false
        )
      )
    )
  ]);
  return dirs.includes(true) || links.includes(true);
}
var FEW_CHANGES;
var init_capture = __esm({
  "src/checkpoints/capture.ts"() {
    "use strict";
    init_checkpoint_index();
    init_path_bytes();
    init_skip_rules();
    init_workspace_paths();
    FEW_CHANGES = 1e3;
  }
});

// src/checkpoints/message.ts
import { randomBytes as randomBytes6 } from "node:crypto";
function encodeMessage(meta2) {
  const firstLine2 = meta2.label?.split("\n")[0]?.slice(0, 72) ?? "";
  const subject = meta2.kind === "safety" ? "agentgate safety checkpoint" : "agentgate checkpoint";
  return `${subject}${firstLine2 ? `: ${firstLine2}` : ""}

${JSON.stringify(meta2)}
`;
}
function decodeMessage(body, commitDate) {
  for (const line of body.split("\n").reverse()) {
    if (!line.startsWith("{")) continue;
    try {
      const parsed = CheckpointMeta.safeParse(JSON.parse(line));
      if (parsed.success) return parsed.data;
    } catch {
    }
  }
  return { label: null, createdAt: new Date(commitDate).toISOString(), kind: "track" };
}
function newCheckpointRef(now = Date.now()) {
  lastStamp = Math.max(now, lastStamp + 1);
  const iso = new Date(lastStamp).toISOString();
  const stamp = iso.replace(/[-:]/g, "").replace(".", "");
  return `${CHECKPOINT_REF_PREFIX}${stamp}-${randomBytes6(3).toString("hex")}`;
}
function entryOf(r) {
  const { label, createdAt, kind, session, event, prompt } = decodeMessage(r.body, r.date);
  return {
    ref: r.ref,
    hash: r.tree,
    label,
    createdAt,
    kind,
    ...session === void 0 ? {} : { session },
    ...event === void 0 ? {} : { event },
    ...prompt === void 0 ? {} : { prompt }
  };
}
var CheckpointMeta, CHECKPOINT_REF_PREFIX, META_REF_PREFIX, LATEST_REF, BASELINE_REF, SAFETY_REF, lastStamp;
var init_message2 = __esm({
  "src/checkpoints/message.ts"() {
    "use strict";
    init_zod();
    CheckpointMeta = object({
      label: string2().nullable(),
      createdAt: string2(),
      kind: _enum(["track", "safety"]),
      /** Set by agent hooks: the agent's session id and the event that took the checkpoint. */
      session: string2().optional(),
      event: string2().optional(),
      /** The N-th prompt of the session: this checkpoint is the state just before it. */
      prompt: number2().int().positive().optional()
    });
    CHECKPOINT_REF_PREFIX = "refs/checkpoints/";
    META_REF_PREFIX = "refs/checkpoints-meta/";
    LATEST_REF = `${META_REF_PREFIX}latest`;
    BASELINE_REF = `${META_REF_PREFIX}baseline`;
    SAFETY_REF = `${META_REF_PREFIX}safety`;
    lastStamp = 0;
  }
});

// src/checkpoints/record.ts
async function recordCheckpoint(repo, treeId, meta2) {
  const commit = await commitTree(
    repo,
    treeId,
    [],
    encodeMessage({ label: meta2.label, createdAt: (/* @__PURE__ */ new Date()).toISOString(), kind: meta2.kind, ...meta2.tag })
  );
  const ref = newCheckpointRef();
  const updates = [
    { ref, newSha: commit, oldSha: null },
    { ref: LATEST_REF, newSha: commit }
  ];
  if (meta2.kind === "safety") updates.push({ ref: SAFETY_REF, newSha: commit });
  if (meta2.setBaseline) updates.push({ ref: BASELINE_REF, newSha: commit });
  await updateRefs(repo, updates, { message: "agentgate checkpoint" });
  return ref;
}
function knownPaths(paths) {
  const out = /* @__PURE__ */ new Set();
  for (const path of paths) {
    for (let p = path; p !== "" && !out.has(p); p = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "")
      out.add(p);
  }
  return out;
}
var init_record = __esm({
  "src/checkpoints/record.ts"() {
    "use strict";
    init_commit();
    init_refs();
    init_message2();
  }
});

// src/checkpoints/plan.ts
function planChanges(desired, current) {
  const plan = { writes: [], deletes: [], uncovered: [] };
  for (const [path, want] of desired) {
    const have = current.get(path);
    if (want !== null) {
      if (have === void 0 || have.oid !== want.oid || have.mode !== want.mode)
        plan.writes.push({ ...want, path });
    } else if (have !== void 0) {
      plan.deletes.push(path);
    } else {
      plan.uncovered.push(path);
    }
  }
  return plan;
}
function restoreDesired(target, current) {
  const paths = /* @__PURE__ */ new Set([...target.keys(), ...current.keys()]);
  return [...paths].sort().map((p) => [p, target.get(p) ?? null]);
}
function changedBetween(target, current, selection2) {
  const out = [];
  for (const path of /* @__PURE__ */ new Set([...target.keys(), ...current.keys()])) {
    const a = target.get(path);
    const b = current.get(path);
    if (a !== void 0 && b !== void 0 && a.oid === b.oid && a.mode === b.mode) continue;
    if (selection2 === null || selection2.some((s) => isUnder(path, s))) out.push(path);
  }
  return out.sort();
}
function firstPatchWins(pairs) {
  const out = /* @__PURE__ */ new Map();
  for (const [path, hash] of pairs) if (!out.has(path)) out.set(path, hash);
  return out;
}
var init_plan = __esm({
  "src/checkpoints/plan.ts"() {
    "use strict";
    init_workspace_paths();
  }
});

// src/checkpoints/project-id.ts
import { createHash as createHash6 } from "node:crypto";
import { readdir as readdir5, readFile as readFile10 } from "node:fs/promises";
import { join as join23 } from "node:path";
function pathKey(realPath) {
  return createHash6("sha256").update(realPath).digest("hex").slice(0, 16);
}
function storeLayout(checkpointsDir, projectId, worktreeKey) {
  const dir = join23(checkpointsDir, projectId, worktreeKey);
  return {
    projectId,
    worktreeKey,
    dir,
    gitDir: join23(dir, "git"),
    indexFile: join23(dir, "index"),
    metaFile: join23(dir, "store.json"),
    upkeepFile: join23(dir, "upkeep.json"),
    lockPath: join23(dir, "lock"),
    tempDir: join23(dir, "tmp")
  };
}
async function locateStore(checkpointsDir, root, rootCommit2) {
  const worktreeKey = `wt-${pathKey(root)}`;
  for (const projectId2 of await listDir2(checkpointsDir)) {
    const candidate = storeLayout(checkpointsDir, projectId2, worktreeKey);
    if (await readStoredWorkspace(candidate.metaFile) === root) return candidate;
  }
  const projectId = await rootCommit2() ?? `path-${pathKey(root)}`;
  return storeLayout(checkpointsDir, projectId, worktreeKey);
}
async function readStoredWorkspace(metaFile) {
  try {
    const parsed = JSON.parse(await readFile10(metaFile, "utf8"));
    return typeof parsed.workspace === "string" ? parsed.workspace : null;
  } catch {
    return null;
  }
}
async function listDir2(dir) {
  try {
    return (await readdir5(dir)).sort();
  } catch {
    return [];
  }
}
var init_project_id = __esm({
  "src/checkpoints/project-id.ts"() {
    "use strict";
  }
});

// src/checkpoints/retention.ts
import { lstat as lstat6, readdir as readdir6 } from "node:fs/promises";
import { join as join24 } from "node:path";
function assertRetention(keep, pruneAge) {
  if (!Number.isInteger(keep) || keep < 0) {
    throw new InvalidArgumentError(
      `keep must be a whole number of checkpoints (0 or more), not ${String(keep)}`,
      { details: { keep } }
    );
  }
  if (!PRUNE_AGE.test(pruneAge)) {
    throw new InvalidArgumentError(
      `prune age ${JSON.stringify(pruneAge)} is not a git date such as "now", "2.weeks.ago" or "2025-01-31"`,
      { details: { pruneAge } }
    );
  }
}
function selectRemovals(newestFirst, keep, protectedOids) {
  return newestFirst.slice(keep).filter((r) => !protectedOids.has(r.oid));
}
async function directorySize(dir) {
  let total = 0;
  let names;
  try {
    names = await readdir6(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join24(dir, name);
    try {
      const st = await lstat6(path);
      total += st.isDirectory() ? await directorySize(path) : st.size;
    } catch {
    }
  }
  return total;
}
var DEFAULT_PRUNE_AGE, PRUNE_AGE;
var init_retention = __esm({
  "src/checkpoints/retention.ts"() {
    "use strict";
    init_errors();
    DEFAULT_PRUNE_AGE = "2.weeks.ago";
    PRUNE_AGE = /^[A-Za-z0-9][A-Za-z0-9.:_-]{0,63}$/;
  }
});

// types/checkpoint.ts
var SkippedFile, TrackResult, Patch, FileDiff, CheckpointEntry, RestoreResult, RevertResult, GcResult, PruneEvent, UpkeepRecord, StoreStatus;
var init_checkpoint = __esm({
  "types/checkpoint.ts"() {
    "use strict";
    init_zod();
    init_snapshot();
    SkippedFile = object({
      path: string2(),
      /** `unreadable`: a FIFO, socket, device or a file that cannot be read; git cannot stage it. */
      reason: _enum(["too-large", "nested-repository", "unreadable"]),
      size: number2().int().nonnegative().nullable()
    });
    TrackResult = object({ hash: Sha, ref: string2(), skipped: array(SkippedFile) });
    Patch = object({ hash: Sha, files: array(string2()) });
    FileDiff = object({
      file: string2(),
      before: string2(),
      after: string2(),
      additions: number2().int().nonnegative(),
      deletions: number2().int().nonnegative(),
      status: _enum(["added", "modified", "deleted"]),
      binary: boolean2()
    });
    CheckpointEntry = object({
      ref: string2(),
      hash: Sha,
      label: string2().nullable(),
      createdAt: IsoDate,
      /** `safety`: taken automatically just before a restore or revert, so that it can be undone. */
      kind: _enum(["track", "safety"]).optional(),
      /** Checkpoints taken by agent hooks: the agent's session id and the hook event (`UserPromptSubmit`, `turn.start`, ...). */
      session: string2().optional(),
      event: string2().optional(),
      /** Only on the checkpoint taken just before the N-th prompt of its session: N. */
      prompt: number2().int().positive().optional()
    });
    RestoreResult = object({
      hash: Sha,
      safety: Sha,
      safetyRef: string2(),
      /** Absolute paths the checkpoint knows but that were not touched (ignored, skipped, or in the way). */
      leftAlone: array(string2())
    });
    RevertResult = object({
      reverted: array(string2()),
      deleted: array(string2()),
      safety: Sha,
      safetyRef: string2(),
      leftAlone: array(string2())
    });
    GcResult = object({
      kept: number2().int().nonnegative(),
      removed: number2().int().nonnegative(),
      pruneAge: string2(),
      storeBytesBefore: number2().int().nonnegative(),
      storeBytesAfter: number2().int().nonnegative()
    });
    PruneEvent = object({
      at: IsoDate,
      removed: array(CheckpointEntry),
      storeBytesBefore: number2().int().nonnegative(),
      storeBytesAfter: number2().int().nonnegative()
    });
    UpkeepRecord = object({
      lastPackedAt: IsoDate.nullable(),
      pruned: array(PruneEvent)
    });
    StoreStatus = object({
      workspace: string2(),
      /** Object store (loose, packed, leftovers) plus the index; `checkpoints.maxStoreBytes` bounds it. */
      storeBytes: number2().int().nonnegative(),
      budgetBytes: number2().int().positive(),
      checkpoints: number2().int().nonnegative(),
      looseObjects: number2().int().nonnegative(),
      packs: number2().int().nonnegative(),
      lastPackedAt: IsoDate.nullable(),
      pruned: array(PruneEvent)
    });
  }
});

// src/checkpoints/upkeep.ts
import { readFile as readFile11, rm as rm13, stat as stat10 } from "node:fs/promises";
import { dirname as dirname12 } from "node:path";
async function gcStore(repo, location, keep, pruneAge) {
  const storeBytesBefore = await directorySize(location.dir);
  const records = await listRefRecords(repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
  const checkpoints = records.filter((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX));
  const protectedOids = new Set(records.filter((r) => r.ref.startsWith(META_REF_PREFIX)).map((r) => r.oid));
  const removals = selectRemovals(checkpoints, keep, protectedOids);
  await deleteRefs(
    repo,
    removals.map((r) => ({ ref: r.ref, oldSha: r.oid }))
  );
  try {
    await gcCheckpointRepo(repo, pruneAge);
  } finally {
    await sweepGitTemporaries(location.gitDir);
  }
  const storeBytesAfter = await directorySize(location.dir);
  return {
    kept: checkpoints.length - removals.length,
    removed: removals.length,
    pruneAge,
    storeBytesBefore,
    storeBytesAfter
  };
}
async function repairOnAcquire(repo, location, recovered, staleIndexLockMs) {
  if (recovered) {
    await removeOrphanedGitLocks({ gitDir: location.gitDir, indexFile: repo.indexFile, ownerSince: 0 });
    await rm13(location.tempDir, { recursive: true, force: true });
    await sweepGitTemporaries(location.gitDir);
  } else {
    await removeLockOlderThan(`${repo.indexFile}.lock`, staleIndexLockMs);
  }
  await sweepTempFiles(dirname12(location.metaFile));
  await sweepTempFiles(location.tempDir, { pattern: PLACE_TEMP_NAME });
  await sweepTempFiles(repo.workTree, { pattern: PLACE_TEMP_NAME });
}
async function storeBytes(repo, counts) {
  const index = await stat10(repo.indexFile).then(
    (st) => st.size,
    () => 0
  );
  return counts.looseBytes + counts.packBytes + counts.garbageBytes + index;
}
async function keepWithinBudget(repo, location, maxStoreBytes) {
  let counts = await countObjects(repo);
  if (counts.packs >= PACKS_LIMIT) {
    await withSweep(location, () => gcCheckpointRepo(repo, DEFAULT_PRUNE_AGE));
    await updateUpkeep(location, (u) => ({ ...u, lastPackedAt: (/* @__PURE__ */ new Date()).toISOString() }));
    counts = await countObjects(repo);
  } else if (counts.loose >= LOOSE_OBJECTS_LIMIT) {
    await withSweep(location, () => packLooseObjects(repo));
    await updateUpkeep(location, (u) => ({ ...u, lastPackedAt: (/* @__PURE__ */ new Date()).toISOString() }));
    counts = await countObjects(repo);
  }
  const before2 = await storeBytes(repo, counts);
  if (before2 <= maxStoreBytes) return;
  let after2 = before2;
  const removed = [];
  while (after2 > maxStoreBytes * PRUNE_TARGET) {
    const records = await listRefRecords(repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
    const protectedOids = new Set(records.filter((r) => r.ref.startsWith(META_REF_PREFIX)).map((r) => r.oid));
    const candidates = records.filter(
      (r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX) && !protectedOids.has(r.oid)
    );
    if (candidates.length === 0) break;
    const drop = candidates.slice(-Math.ceil(candidates.length / 4));
    await deleteRefs(
      repo,
      drop.map((r) => ({ ref: r.ref, oldSha: r.oid }))
    );
    removed.push(...drop.map(entryOf));
    await withSweep(location, () => gcCheckpointRepo(repo, "now"));
    after2 = await storeBytes(repo, await countObjects(repo));
  }
  const event = {
    at: (/* @__PURE__ */ new Date()).toISOString(),
    removed,
    storeBytesBefore: before2,
    storeBytesAfter: after2
  };
  await updateUpkeep(location, (u) => ({
    lastPackedAt: (/* @__PURE__ */ new Date()).toISOString(),
    pruned: [event, ...u.pruned].slice(0, PRUNE_HISTORY)
  }));
}
async function readUpkeep(location) {
  try {
    const parsed = UpkeepRecord.safeParse(JSON.parse(await readFile11(location.upkeepFile, "utf8")));
    if (parsed.success) return parsed.data;
  } catch {
  }
  return { lastPackedAt: null, pruned: [] };
}
async function updateUpkeep(location, change) {
  await writeJsonAtomic(location.upkeepFile, change(await readUpkeep(location)));
}
async function withSweep(location, fn) {
  try {
    await fn();
  } finally {
    await sweepGitTemporaries(location.gitDir);
  }
}
var LOOSE_OBJECTS_LIMIT, PACKS_LIMIT, PRUNE_TARGET, PRUNE_HISTORY;
var init_upkeep = __esm({
  "src/checkpoints/upkeep.ts"() {
    "use strict";
    init_checkpoint();
    init_atomic();
    init_git_locks();
    init_place();
    init_sweep();
    init_checkpoint_repo();
    init_refs();
    init_message2();
    init_retention();
    LOOSE_OBJECTS_LIMIT = 1e3;
    PACKS_LIMIT = 50;
    PRUNE_TARGET = 0.8;
    PRUNE_HISTORY = 20;
  }
});

// src/checkpoints/checkpoints.ts
import { access as access4, readFile as readFile12, realpath as realpath7 } from "node:fs/promises";
import { homedir as homedir4 } from "node:os";
import { join as join25, sep as sep7 } from "node:path";
async function physicalPath(path) {
  try {
    await access4(path);
    return await realpath7(path);
  } catch {
    return path;
  }
}
var Checkpoints;
var init_checkpoints = __esm({
  "src/checkpoints/checkpoints.ts"() {
    "use strict";
    init_config();
    init_errors();
    init_path_bytes();
    init_checkpoint_index();
    init_checkpoint_repo();
    init_checkpoint_trees();
    init_ids2();
    init_refs();
    init_repo();
    init_user_ignore();
    init_atomic();
    init_lock();
    init_paths();
    init_apply();
    init_capture();
    init_record();
    init_message2();
    init_plan();
    init_project_id();
    init_retention();
    init_upkeep();
    init_workspace_paths();
    Checkpoints = class _Checkpoints {
      constructor(workspace, location, repo, excluded, forbidden, maxFileSizeBytes, lockTimeoutMs, userExcludes, maxStoreBytes) {
        this.workspace = workspace;
        this.location = location;
        this.repo = repo;
        this.excluded = excluded;
        this.forbidden = forbidden;
        this.maxFileSizeBytes = maxFileSizeBytes;
        this.lockTimeoutMs = lockTimeoutMs;
        this.userExcludes = userExcludes;
        this.maxStoreBytes = maxStoreBytes;
      }
      workspace;
      location;
      repo;
      excluded;
      forbidden;
      maxFileSizeBytes;
      lockTimeoutMs;
      userExcludes;
      maxStoreBytes;
      baselineKnown = false;
      storeReady = false;
      /** An index.lock older than this cannot belong to a live git call of ours (they time out sooner). */
      get staleIndexLockMs() {
        return (this.repo.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS) + 5e3;
      }
      /**
       * Opens (without creating) the checkpoint store of the workspace containing `dir`. Throws
       * WORKSPACE_NOT_FOUND, or UNSAFE_WORKSPACE for `/`, a home directory, a `.git` directory or our
       * own checkpoint directory.
       */
      static async open(dir, opts = {}) {
        const real = await resolveWorkspaceDir(dir);
        assertSafeWorkspace(real);
        const gitOpts = {
          ...opts.identity ? { identity: opts.identity } : {},
          ...opts.gitTimeoutMs ? { timeoutMs: opts.gitTimeoutMs } : {},
          ...opts.signal ? { signal: opts.signal } : {}
        };
        const probe = await probeWorkspace(real, gitOpts);
        const root = probe.root;
        assertSafeWorkspace(root);
        const home = await physicalPath(resolveHome(opts.home));
        const checkpointsDir = layout(home).checkpoints;
        if (root.split(sep7).includes(".git") || root === home || isInside(checkpointsDir, root)) {
          throw new UnsafeWorkspaceError(
            `refusing to use ${root} as a workspace: it is a .git directory or agentgate's own data; give the path of a project directory`,
            {
              details: { workspace: root }
            }
          );
        }
        const forbidden = [home, ...await Promise.all((opts.excludePaths ?? []).map(physicalPath))];
        const excluded = forbidden.filter((p) => p !== root && isInside(root, p)).map((p) => toGitPath(root, p));
        const location = await locateStore(
          checkpointsDir,
          root,
          () => probe.isRepository ? rootCommit(root, gitOpts) : Promise.resolve(null)
        );
        const repo = checkpointRepo({
          workspace: root,
          gitDir: location.gitDir,
          indexFile: location.indexFile,
          excludesFile: probe.excludesFile,
          ...gitOpts
        });
        const maxBytes = opts.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES;
        const userExcludes = await userExcludesFile({
          home: homedir4(),
          xdgConfigHome: process.env.XDG_CONFIG_HOME,
          cwd: root,
          ...gitOpts
        });
        return new _Checkpoints(
          root,
          location,
          repo,
          excluded,
          forbidden,
          maxBytes,
          opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
          userExcludes,
          opts.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES
        );
      }
      /**
       * Records the current state as a new checkpoint, then keeps the store within its budget (see
       * keepWithinBudget in upkeep.ts); an upkeep failure is returned, not thrown: the checkpoint stands.
       */
      async track(label, opts = {}) {
        return this.locked("checkpoint track", async () => {
          const prompt = opts.beforePrompt && opts.session ? await this.nextPrompt(opts.session) : void 0;
          const tag = {
            ...opts.session === void 0 ? {} : { session: opts.session },
            ...opts.event === void 0 ? {} : { event: opts.event },
            ...prompt === void 0 ? {} : { prompt }
          };
          const captured = await this.capture();
          if (opts.unlessUnchanged && captured.treeId === await resolveTreeId(this.repo, LATEST_REF)) {
            const ref = (await this.markers()).latest?.ref ?? LATEST_REF;
            const skipped = captured.skipped.map((s) => this.skippedFile(s));
            return { hash: captured.treeId, ref, skipped, unchanged: true };
          }
          const t = await this.trackLocked(label ?? null, "track", opts.baseline === true, tag, captured);
          const upkeepError = await keepWithinBudget(this.repo, this.location, this.maxStoreBytes).then(
            () => void 0,
            (error2) => error2
          );
          return {
            hash: t.hash,
            ref: t.ref,
            skipped: t.skipped,
            ...prompt === void 0 ? {} : { prompt },
            ...upkeepError === void 0 ? {} : { upkeepError }
          };
        });
      }
      /**
       * The checkpoint taken just before the `prompt`-th prompt of `session` (default: the session of
       * the newest checkpoint an agent hook took). CHECKPOINT_NOT_FOUND when there is none.
       */
      async beforePrompt(prompt, session) {
        const entries = await this.list();
        const chosen = session ?? entries.find((e) => e.session !== void 0)?.session;
        const hit = entries.find((e) => e.session === chosen && e.prompt === prompt);
        if (hit !== void 0) return hit;
        const which = chosen === void 0 ? "no agent session has checkpoints" : `session ${chosen}`;
        throw new CheckpointNotFoundError(
          `no checkpoint before prompt ${prompt} (${which}); it may not exist or was pruned to fit the store's budget; see "checkpoint list"`,
          { details: { prompt, session: chosen ?? null, workspace: this.workspace } }
        );
      }
      /** The store's size against its budget, its checkpoints and objects, and what automatic upkeep pruned. */
      async status() {
        const upkeep = await readUpkeep(this.location);
        const base = { workspace: this.workspace, budgetBytes: this.maxStoreBytes, ...upkeep };
        if (!await this.exists()) return { ...base, storeBytes: 0, checkpoints: 0, looseObjects: 0, packs: 0 };
        const counts = await countObjects(this.repo);
        return {
          ...base,
          storeBytes: await storeBytes(this.repo, counts),
          checkpoints: (await this.list()).length,
          looseObjects: counts.loose,
          packs: counts.packs
        };
      }
      /** Starts a session: records a checkpoint and makes it the baseline. */
      async startSession(label) {
        return this.track(label, { baseline: true });
      }
      /** Files changed since checkpoint `hash`, as absolute paths (the current state is captured first, without a checkpoint). */
      async patch(hash) {
        return this.locked("checkpoint patch", async () => {
          const from = await this.requireTreeId(hash);
          const { treeId } = await this.capture();
          const files = await this.withoutNowIgnored(await changedPaths(this.repo, from, treeId));
          return { hash: from, files: files.map((f) => toAbsolute(this.workspace, f)) };
        });
      }
      /**
       * Unified diff (binary-safe, applicable with `git apply`) from checkpoint `hash` to the current
       * state, byte for byte as git wrote it.
       */
      async diffBytes(hash) {
        return this.locked("checkpoint diff", async () => {
          const from = await this.requireTreeId(hash);
          const { treeId } = await this.capture();
          const changed = await changedPaths(this.repo, from, treeId);
          const ignored = await ignoredPaths(this.repo, changed);
          return unifiedTreeDiff(this.repo, from, treeId, [...ignored]);
        });
      }
      /** diffBytes as a string, decoded losslessly: bytes that are not UTF-8 become U+DC80..U+DCFF (fs/path-bytes.ts). */
      async diff(hash) {
        return decodeBytes(await this.diffBytes(hash));
      }
      /**
       * Per-file before/after contents between two checkpoints (`to` defaults to the current state).
       * Contents of every file come from one `cat-file --batch` process; binary files have empty
       * contents and zero counts. Paths are workspace-relative.
       */
      async diffFull(from, to) {
        return this.locked("checkpoint diff-full", async () => {
          const fromTree = await this.requireTreeId(from);
          const toTree = to === void 0 ? (await this.capture()).treeId : await this.requireTreeId(to);
          const all = await diffTrees(this.repo, fromTree, toTree);
          const kept = new Set(await this.withoutNowIgnored(all.map((r) => r.path)));
          const records = all.filter((r) => kept.has(r.path));
          const wanted = records.filter((r) => !r.binary).flatMap((r) => [r.srcId, r.dstId]).filter((o) => !isNullId(o));
          const blobs = await readObjects(this.repo, wanted);
          const text = (oid) => isNullId(oid) ? "" : blobs.get(oid)?.toString("utf8") ?? "";
          return records.map((r) => ({
            file: r.path,
            before: r.binary ? "" : text(r.srcId),
            after: r.binary ? "" : text(r.dstId),
            additions: r.insertions,
            deletions: r.deletions,
            status: r.status === "A" ? "added" : r.status === "D" ? "deleted" : "modified",
            binary: r.binary
          }));
        });
      }
      /**
       * Makes the workspace match checkpoint `hash` for every path the checkpoints know: changed files
       * rewritten, files created since removed, deleted files brought back. A safety checkpoint is
       * taken first; ignored, skipped and never-captured files are not touched (see apply.ts).
       */
      async restore(hash) {
        return this.locked("checkpoint restore", async () => {
          const target = await this.requireTreeId(hash);
          const wanted = await this.requireListing(target);
          const safety = await this.trackLocked(`safety before restore ${target.slice(0, 12)}`, "safety", false);
          const current = await this.requireListing(safety.hash);
          const applied = await this.apply(
            planChanges(restoreDesired(wanted, current), current),
            current,
            safety.skips
          );
          return {
            hash: target,
            safety: safety.hash,
            safetyRef: safety.ref,
            leftAlone: this.absolute(applied.leftAlone)
          };
        });
      }
      /** Undoes a restore or revert: restores its safety checkpoint. */
      async unrevert(safety) {
        return this.restore(safety);
      }
      async revert(target, paths) {
        if (typeof target === "string") {
          this.assertRevision(target);
          const selection2 = paths === void 0 ? null : await Promise.all(paths.map((p) => toWorkspaceGitPath(this.workspace, p, this.forbidden)));
          return this.locked("checkpoint revert", async () => {
            const wanted = await this.requireListing(target);
            if (selection2 !== null) await this.assertKnownPaths(selection2, wanted);
            return this.revertLocked(
              (current) => changedBetween(wanted, current, selection2).map((p) => [p, wanted.get(p) ?? null])
            );
          });
        }
        if (paths !== void 0)
          throw new InvalidArgumentError(
            "revert(patches) takes no separate paths: list the files in the patches",
            { details: {} }
          );
        const pairs = [];
        for (const patch3 of target) {
          this.assertRevision(patch3.hash);
          for (const file of patch3.files)
            pairs.push([await toWorkspaceGitPath(this.workspace, file, this.forbidden), patch3.hash]);
        }
        const sources = firstPatchWins(pairs);
        return this.locked("checkpoint revert", async () => {
          const listings = /* @__PURE__ */ new Map();
          for (const hash of new Set(target.map((p) => p.hash)))
            listings.set(hash, await this.requireListing(hash));
          return this.revertLocked(
            () => [...sources].map(([path, hash]) => [path, listings.get(hash)?.get(path) ?? null])
          );
        });
      }
      /** Recorded checkpoints, newest first. */
      async list() {
        if (!await this.exists()) return [];
        const records = await listRefRecords(this.repo, [CHECKPOINT_REF_PREFIX]);
        return records.map(entryOf);
      }
      /** The checkpoints that baseline, latest and the last safety checkpoint point at. */
      async markers() {
        const none = { baseline: null, latest: null, safety: null };
        if (!await this.exists()) return none;
        const records = await listRefRecords(this.repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
        const find = (meta2) => {
          const marker = records.find((r) => r.ref === meta2);
          if (marker === void 0) return null;
          const named = records.find((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX) && r.oid === marker.oid);
          return entryOf(named ?? marker);
        };
        return { baseline: find(BASELINE_REF), latest: find(LATEST_REF), safety: find(SAFETY_REF) };
      }
      /**
       * `checkpoint gc`: retention, then git gc (see upkeep.ts). Keeps the newest `keep` checkpoints
       * plus those baseline, latest and the last safety checkpoint point at.
       */
      async gc(opts = {}) {
        const keep = opts.keep ?? DEFAULT_KEEP;
        const pruneAge = opts.pruneAge ?? DEFAULT_PRUNE_AGE;
        assertRetention(keep, pruneAge);
        if (!await this.exists()) {
          return { kept: 0, removed: 0, pruneAge, storeBytesBefore: 0, storeBytesAfter: 0 };
        }
        return this.locked("checkpoint gc", () => gcStore(this.repo, this.location, keep, pruneAge));
      }
      /** The earlier name of gc(). */
      async cleanup(opts = {}) {
        return this.gc(opts);
      }
      // ---- internals ----
      async revertLocked(desired) {
        const safety = await this.trackLocked("safety before revert", "safety", false);
        const current = await this.requireListing(safety.hash);
        const applied = await this.apply(planChanges(desired(current), current), current, safety.skips);
        return {
          reverted: this.absolute(applied.written),
          deleted: this.absolute(applied.deleted),
          safety: safety.hash,
          safetyRef: safety.ref,
          leftAlone: this.absolute(applied.leftAlone)
        };
      }
      apply(plan, current, skips) {
        const blocked = [...this.excluded, ...skips.map((s) => s.path)];
        return applyPlan(
          { root: this.workspace, repo: this.repo, tempDir: this.location.tempDir, current, blocked },
          plan
        );
      }
      /** Captures the workspace as a tree (capture.ts). Caller holds the lock. */
      capture() {
        return captureWorkspace({
          root: this.workspace,
          repo: this.repo,
          excluded: this.excluded,
          maxFileSizeBytes: this.maxFileSizeBytes
        });
      }
      /**
       * Every path named by a revert must be known to the checkpoint or to the workspace now
       * (PATH_NOT_FOUND otherwise), so that a typo is an error before anything changes.
       */
      async assertKnownPaths(selection2, wanted) {
        const inCheckpoint = knownPaths(wanted.keys());
        const unknown2 = selection2.filter((sel) => !inCheckpoint.has(sel));
        if (unknown2.length === 0) return;
        const inWorkspace = knownPaths((await listTree(this.repo, (await this.capture()).treeId))?.keys() ?? []);
        const missing = unknown2.filter((sel) => !inWorkspace.has(sel));
        if (missing.length > 0) {
          const abs = missing.map((p) => toAbsolute(this.workspace, p));
          throw new PathNotFoundError(
            `${abs.join(", ")}: neither the checkpoint nor the workspace has such a path; check the spelling (see "checkpoint patch HASH")`,
            {
              details: { paths: abs }
            }
          );
        }
      }
      async trackLocked(label, kind, baseline, tag = {}, captured) {
        const { treeId, skipped } = captured ?? await this.capture();
        const ref = await recordCheckpoint(this.repo, treeId, {
          label,
          kind,
          setBaseline: baseline || !await this.hasBaseline(),
          tag
        });
        this.baselineKnown = true;
        return { hash: treeId, ref, skipped: skipped.map((s) => this.skippedFile(s)), skips: skipped };
      }
      /**
       * One more than the highest prompt number the session's checkpoints carry (1 for a new
       * session). Caller holds the lock, so two hooks of one session never take the same number.
       */
      async nextPrompt(session) {
        const numbers = (await this.list()).filter((e) => e.session === session).map((e) => e.prompt ?? 0);
        return Math.max(0, ...numbers) + 1;
      }
      async hasBaseline() {
        if (!this.baselineKnown) this.baselineKnown = await readRef(this.repo, BASELINE_REF) !== null;
        return this.baselineKnown;
      }
      skippedFile(s) {
        return { path: toAbsolute(this.workspace, s.path), reason: s.reason, size: s.size };
      }
      absolute(paths) {
        return paths.map((p) => toAbsolute(this.workspace, p));
      }
      assertRevision(hash) {
        if (!isCheckpointRevision(hash)) throw this.notFound(hash);
      }
      notFound(hash) {
        return new CheckpointNotFoundError(
          `no checkpoint ${JSON.stringify(hash.slice(0, 80))} in the store of ${this.workspace}; see "checkpoint list"`,
          {
            details: { hash: hash.slice(0, 200), workspace: this.workspace }
          }
        );
      }
      /** The tree id a checkpoint revision (tree id, commit id, ref) names; CHECKPOINT_NOT_FOUND otherwise. */
      async requireTreeId(rev) {
        const treeId = await resolveTreeId(this.repo, rev);
        if (treeId === null) throw this.notFound(rev);
        return treeId;
      }
      async requireListing(hash) {
        const listing = await listTree(this.repo, hash);
        if (listing === null) throw this.notFound(hash);
        return listing;
      }
      async exists() {
        return await readStoredWorkspace(this.location.metaFile) === this.workspace;
      }
      /** Runs `fn` holding the store lock, creating the store first if needed. */
      locked(purpose, fn) {
        return withLock(this.location.lockPath, { timeoutMs: this.lockTimeoutMs, purpose }, async (lock) => {
          await repairOnAcquire(this.repo, this.location, lock.recovered !== null, this.staleIndexLockMs);
          await this.ensureStore();
          return fn();
        });
      }
      async ensureStore() {
        if (this.storeReady) return;
        if (!await this.exists()) {
          await initCheckpointRepo(this.repo);
          await writeJsonAtomic(this.location.metaFile, {
            workspace: this.workspace,
            projectId: this.location.projectId,
            createdAt: (/* @__PURE__ */ new Date()).toISOString()
          });
        }
        await this.mirrorUserExcludes();
        this.storeReady = true;
      }
      /**
       * The repository's own info/exclude is already honoured as core.excludesFile; the user's global
       * ignore file goes into the checkpoint repository's info/exclude (rewritten when it changed), so
       * that checkpoints ignore what the user's git ignores, and nothing else of the user's config.
       */
      async mirrorUserExcludes() {
        const wanted = this.userExcludes === null ? "" : await readFile12(this.userExcludes, "utf8").catch(() => "");
        const target = join25(this.location.gitDir, "info", "exclude");
        const have = await readFile12(target, "utf8").catch(() => null);
        if (have !== wanted) await writeFileAtomic(target, wanted);
      }
      /**
       * Drops paths that the ignore rules match now. A file captured at an earlier checkpoint and
       * ignored since leaves later captures; it is not reported as changed (deleted), as git does not
       * report an ignored file, and restore and revert never touch it.
       */
      async withoutNowIgnored(paths) {
        const ignored = await ignoredPaths(this.repo, paths);
        return ignored.size === 0 ? [...paths] : paths.filter((p) => !ignored.has(p));
      }
    };
  }
});

// src/checkpoints/index.ts
var init_checkpoints2 = __esm({
  "src/checkpoints/index.ts"() {
    "use strict";
    init_checkpoints();
    init_retention();
  }
});

// src/cli/commands/checkpoint.ts
var checkpoint_exports = {};
__export(checkpoint_exports, {
  CHECKPOINT_COMMANDS: () => CHECKPOINT_COMMANDS
});
import { mkdtemp as mkdtemp5, rm as rm14, writeFile as writeFile6 } from "node:fs/promises";
import { tmpdir as tmpdir5 } from "node:os";
import { join as join26, resolve as resolve12 } from "node:path";
function open4(ctx) {
  const s = ctx.settings;
  return Checkpoints.open(ctx.workspace, {
    home: s.home,
    maxFileSizeBytes: s.checkpoints.maxFileSizeBytes,
    excludePaths: [s.artifactsDir],
    lockTimeoutMs: s.lockTimeoutMs,
    gitTimeoutMs: s.gitTimeoutMs,
    identity: s.identity,
    maxStoreBytes: s.checkpoints.maxStoreBytes
  });
}
async function resolveCheckpoint(cp, name) {
  if (OBJECT_ID_PATTERN.test(name)) return name;
  if (MARKERS.includes(name)) {
    const marked = (await cp.markers())[name];
    if (marked === null)
      throw new CheckpointNotFoundError(
        `there is no "${name}" checkpoint yet; "checkpoint track" records one`,
        { details: { hash: name } }
      );
    return marked.hash;
  }
  const entries = await cp.list();
  if (/^[0-9a-f]{4,63}$/.test(name) && entries.some((e) => e.hash.startsWith(name))) return name;
  return entries.find((e) => e.label === name)?.hash ?? name;
}
function fullText(d) {
  const head = `=== ${d.status} ${d.file} (${d.binary ? "binary" : `+${d.additions} -${d.deletions}`})`;
  if (d.binary) return head;
  const body = (label, text, present) => present ? `--- ${label}
${text}${text === "" || text.endsWith("\n") ? "" : "\n\\ No newline at end of file\n"}` : `--- ${label}: (none)
`;
  return `${head}
${body("before", d.before, d.status !== "added")}${body("after", d.after, d.status !== "deleted")}`.replace(
    /\n$/,
    ""
  );
}
function upkeepText(error2) {
  const why = error2 instanceof Error ? error2.message : String(error2);
  return `the checkpoint was recorded, but packing or pruning the store failed: ${why}`;
}
var MARKERS, HASH_FORMS, track, patch2, diff, diffFull, restore, revert, list2, gc, status, CHECKPOINT_COMMANDS;
var init_checkpoint2 = __esm({
  "src/cli/commands/checkpoint.ts"() {
    "use strict";
    init_config();
    init_ids();
    init_checkpoints2();
    init_errors();
    init_output();
    init_spec();
    MARKERS = ["latest", "baseline", "safety"];
    HASH_FORMS = 'HASH is a checkpoint hash (full or abbreviated), a label given to "checkpoint track --label" (the newest checkpoint with it), or latest, baseline or safety.';
    track = defineCommand({
      name: "checkpoint track",
      usage: "checkpoint track [--label L]",
      summary: "Record the workspace's current state in its private checkpoint store.",
      options: {
        label: {
          type: "string",
          valueName: "L",
          description: "a name for the checkpoint; other commands accept it where they take a HASH"
        }
      },
      positionals: { required: [] },
      examples: ['checkpoint track --label "before tool call" --json'],
      async run(ctx, values) {
        const { upkeepError, ...result } = await (await open4(ctx)).track(values.label);
        const warnings = upkeepError === void 0 ? [] : [{ code: "UPKEEP_FAILED", message: upkeepText(upkeepError), file: null }];
        return {
          json: result,
          warnings,
          human: () => [
            `Checkpoint ${result.hash} (${result.ref})`,
            ...result.skipped.map(
              (s) => `  skipped ${printable(s.path)}: ${s.reason}${s.size === null ? "" : ` (${s.size} bytes)`}`
            ),
            ...warnings.map((w) => `  warning: ${w.message}`)
          ].join("\n")
        };
      }
    });
    patch2 = defineCommand({
      name: "checkpoint patch",
      usage: "checkpoint patch HASH",
      summary: 'List the files changed since checkpoint HASH (the diff itself: "checkpoint diff").',
      description: `Prints one absolute path a line; with --json, { "hash", "files" }. ${HASH_FORMS}`,
      options: {},
      positionals: { required: ["HASH"] },
      examples: ["checkpoint patch latest"],
      async run(ctx, _values, [name]) {
        const cp = await open4(ctx);
        const result = await cp.patch(await resolveCheckpoint(cp, name));
        return {
          json: result,
          human: () => result.files.length ? [
            `${result.files.length} files changed since checkpoint ${short(result.hash)}:`,
            ...result.files.map(printable)
          ].join("\n") : `Nothing changed since checkpoint ${short(result.hash)}.`
        };
      }
    });
    diff = defineCommand({
      name: "checkpoint diff",
      usage: "checkpoint diff HASH",
      summary: "Print the unified diff from checkpoint HASH to the current state.",
      description: `The diff is binary-safe and applies with git apply; with --json, { "diff" }. ${HASH_FORMS}`,
      options: {},
      positionals: { required: ["HASH"] },
      examples: ["checkpoint diff latest > since-latest.diff"],
      async run(ctx, _values, [name]) {
        const cp = await open4(ctx);
        const hash = await resolveCheckpoint(cp, name);
        if (ctx.json) return { json: { diff: await cp.diff(hash) }, human: () => "" };
        const dir = await mkdtemp5(join26(tmpdir5(), "agentgate-cpdiff-"));
        const file = join26(dir, "diff.patch");
        const cleanup = () => rm14(dir, { recursive: true, force: true });
        try {
          await writeFile6(file, await cp.diffBytes(hash));
        } catch (error2) {
          await cleanup();
          throw error2;
        }
        return { streamFile: file, cleanup };
      }
    });
    diffFull = defineCommand({
      name: "checkpoint diff-full",
      usage: "checkpoint diff-full FROM [TO]",
      summary: "Print each changed file's whole contents before and after, from checkpoint FROM to TO (default: now).",
      description: `Each file starts with "=== STATUS PATH (+N -M)", then "--- before" and "--- after" with its full contents; binary files are named, not printed. With --json, FileDiff[]. FROM and TO take the forms of HASH: ${HASH_FORMS.slice("HASH is ".length)}`,
      options: {},
      positionals: { required: ["FROM"], optional: ["TO"] },
      examples: ["checkpoint diff-full baseline latest --json"],
      async run(ctx, _values, [from, to]) {
        const cp = await open4(ctx);
        const diffs = await cp.diffFull(
          await resolveCheckpoint(cp, from),
          to === void 0 ? void 0 : await resolveCheckpoint(cp, to)
        );
        return { json: diffs, human: () => diffs.length ? diffs.map(fullText).join("\n") : "No differences." };
      }
    });
    restore = defineCommand({
      name: "checkpoint restore",
      usage: "checkpoint restore HASH | --prompt N [--session ID]",
      summary: "Make the workspace match checkpoint HASH (a safety checkpoint is taken first).",
      description: `Only paths the checkpoints know are touched; "checkpoint restore SAFETY" undoes it. ${HASH_FORMS} With --prompt N instead of HASH: the state just before the N-th prompt of the latest agent session that hooks recorded (--session for another; "checkpoint list" shows both).`,
      options: {
        prompt: {
          type: "integer",
          valueName: "N",
          description: "go back to the state just before the N-th prompt of an agent session"
        },
        session: {
          type: "string",
          valueName: "ID",
          description: "the agent session of --prompt (default: the latest one hooks recorded)"
        }
      },
      positionals: { required: [], optional: ["HASH"] },
      examples: ['checkpoint restore "before tool call"', "checkpoint restore --prompt 3"],
      async run(ctx, values, [name]) {
        if (name === void 0 === (values.prompt === void 0))
          throw new UsageError("give either a HASH or --prompt N (with --session ID for an older session)");
        if (values.session !== void 0 && values.prompt === void 0)
          throw new UsageError("--session goes with --prompt N");
        const cp = await open4(ctx);
        const hash = values.prompt === void 0 ? await resolveCheckpoint(cp, name) : (await cp.beforePrompt(values.prompt, values.session)).hash;
        const result = await cp.restore(hash);
        return {
          json: result,
          human: () => `Restored ${result.hash}.
Undo with: ${PROGRAM} checkpoint restore ${result.safety}`
        };
      }
    });
    revert = defineCommand({
      name: "checkpoint revert",
      usage: "checkpoint revert HASH [PATH...]",
      summary: "Put back the given (default: all changed) files as they were at checkpoint HASH.",
      description: `PATHs are relative to the workspace (-C). A safety checkpoint is taken first; "checkpoint restore SAFETY" undoes it. ${HASH_FORMS}`,
      options: {},
      positionals: { required: ["HASH"], rest: "PATH" },
      examples: ["checkpoint revert latest src/app.ts"],
      async run(ctx, _values, [name, ...paths]) {
        if (paths.includes(""))
          throw new UsageError(
            "an empty PATH names nothing; give files or directories inside the workspace, or no PATH to mean every changed file"
          );
        const cp = await open4(ctx);
        const hash = await resolveCheckpoint(cp, name);
        const result = paths.length ? await cp.revert(
          hash,
          paths.map((p) => resolve12(ctx.workspace, p))
        ) : await cp.revert(hash);
        return {
          json: result,
          human: () => [
            `Reverted ${result.reverted.length} files, deleted ${result.deleted.length}.`,
            ...result.reverted.map((p) => `  reverted ${printable(p)}`),
            ...result.deleted.map((p) => `  deleted  ${printable(p)}`),
            `Undo with: ${PROGRAM} checkpoint restore ${result.safety}`
          ].join("\n")
        };
      }
    });
    list2 = defineCommand({
      name: "checkpoint list",
      usage: "checkpoint list",
      summary: "Recorded checkpoints, newest first.",
      options: {},
      positionals: { required: [] },
      examples: ["checkpoint list --json"],
      async run(ctx) {
        const entries = await (await open4(ctx)).list();
        return {
          json: entries,
          human: () => entries.length ? table(
            ["CREATED", "HASH", "SESSION", "PROMPT", "EVENT", "LABEL", "REF"],
            entries.map((e) => [
              e.createdAt,
              e.hash,
              e.session ?? "-",
              e.prompt === void 0 ? "-" : String(e.prompt),
              e.event ?? "-",
              e.label ?? "-",
              e.ref
            ])
          ) : "No checkpoints."
        };
      }
    });
    gc = defineCommand({
      name: "checkpoint gc",
      usage: "checkpoint gc [--keep N] [--prune AGE]",
      summary: "Keep the newest N checkpoints (and the baseline), then git gc the store.",
      description: "The checkpoints latest, baseline and safety point at are always kept. Reports the store's size before and after.",
      options: {
        keep: {
          type: "integer",
          valueName: "N",
          description: "checkpoints to keep, newest first",
          defaultText: `checkpoints.keep in the config, else ${DEFAULT_KEEP}`
        },
        prune: {
          type: "string",
          valueName: "AGE",
          description: "drop unreachable objects older than AGE, a git date such as 2.weeks.ago, 1.day.ago, 2025-01-31, now or never",
          default: DEFAULT_PRUNE_AGE
        }
      },
      positionals: { required: [] },
      examples: ["checkpoint gc --keep 20 --prune 1.day.ago"],
      async run(ctx, values) {
        const result = await (await open4(ctx)).gc({ keep: values.keep ?? ctx.settings.checkpoints.keep, pruneAge: values.prune });
        return {
          json: result,
          human: () => `Kept ${result.kept} checkpoints, removed ${result.removed}; store ${result.storeBytesBefore} -> ${result.storeBytesAfter} bytes (pruned objects older than ${result.pruneAge}).`
        };
      }
    });
    status = defineCommand({
      name: "checkpoint status",
      usage: "checkpoint status",
      summary: "The checkpoint store's size against its budget, its checkpoints, and what upkeep pruned.",
      description: "checkpoints.maxStoreBytes in the config is the budget: after each checkpoint, the oldest unprotected checkpoints are pruned and the store packed to stay under it.",
      options: {},
      positionals: { required: [] },
      examples: ["checkpoint status --json"],
      async run(ctx) {
        const st = await (await open4(ctx)).status();
        const removed = st.pruned.reduce((n, p) => n + p.removed.length, 0);
        return {
          json: st,
          human: () => [
            `Store of ${printable(st.workspace)}: ${st.storeBytes} of ${st.budgetBytes} bytes, ${st.checkpoints} checkpoints`,
            `  ${st.looseObjects} loose objects, ${st.packs} packs; last packed ${st.lastPackedAt ?? "never"}`,
            st.pruned.length === 0 ? "  nothing pruned" : `  pruned ${removed} checkpoints to stay under budget, last at ${st.pruned[0]?.at ?? ""} (${st.pruned[0]?.storeBytesBefore ?? 0} -> ${st.pruned[0]?.storeBytesAfter ?? 0} bytes)`
          ].join("\n")
        };
      }
    });
    CHECKPOINT_COMMANDS = [
      track,
      patch2,
      diff,
      diffFull,
      restore,
      revert,
      list2,
      gc,
      status
    ];
  }
});

// src/hooks/budget.ts
async function withinBudget(ms, fn) {
  const controller = new AbortController();
  let timer;
  const deadline = new Promise((resolve13) => {
    timer = setTimeout(() => resolve13("late"), ms);
  });
  const work = fn(controller.signal);
  const wrapped = work.then((value) => ({ value }));
  wrapped.catch(() => void 0);
  try {
    const first = await Promise.race([wrapped, deadline]);
    if (first !== "late") return { done: true, value: first.value };
  } finally {
    clearTimeout(timer);
  }
  controller.abort();
  const settled = work.then(
    () => void 0,
    () => void 0
  );
  await Promise.race([settled, new Promise((resolve13) => setTimeout(resolve13, WIND_DOWN_MS).unref())]);
  return { done: false };
}
var WIND_DOWN_MS;
var init_budget = __esm({
  "src/hooks/budget.ts"() {
    "use strict";
    WIND_DOWN_MS = 1e3;
  }
});

// src/hooks/log.ts
import { appendFile as appendFile3, mkdir as mkdir8, rename as rename5, stat as stat11 } from "node:fs/promises";
import { dirname as dirname13 } from "node:path";
async function appendHookLog(file, line) {
  const text = line.replace(/[\r\n]+/g, " ").slice(0, MAX_LINE);
  try {
    await mkdir8(dirname13(file), { recursive: true });
    const size = await stat11(file).then(
      (st) => st.size,
      () => 0
    );
    if (size >= HOOK_LOG_MAX_BYTES) await rename5(file, `${file}.1`).catch(() => void 0);
    await appendFile3(file, `${text}
`);
    return null;
  } catch (error2) {
    return `could not write the hook log ${file} (${errnoOf(error2)})`;
  }
}
var HOOK_LOG_MAX_BYTES, MAX_LINE;
var init_log = __esm({
  "src/hooks/log.ts"() {
    "use strict";
    init_atomic();
    HOOK_LOG_MAX_BYTES = 1024 * 1024;
    MAX_LINE = 2e3;
  }
});

// src/hooks/agent-hook.ts
import { join as join27 } from "node:path";
async function runAgentHook(event, opts = {}) {
  const home = opts.settings?.home ?? resolveHome(opts.home);
  const outcome = await checkpointFor(event, opts).catch(failure2);
  await logOutcome(home, event, outcome);
  return outcome;
}
async function logOutcome(home, event, outcome) {
  const where = [event.event, event.session === void 0 ? null : `session=${event.session}`].filter((w) => w !== null && w !== void 0).join(" ");
  const problem = await appendHookLog(
    logFile(home),
    `${(/* @__PURE__ */ new Date()).toISOString()} ${event.agent}${where ? ` ${where}` : ""} ${outcome.status}: ${outcome.message}`
  );
  if (problem !== null) outcome.message = `${outcome.message}; ${problem}`;
  return outcome;
}
function logFile(home) {
  return join27(layout(home).logs, "hooks.log");
}
async function checkpointFor(event, opts) {
  const settings = opts.settings ?? await resolveSettings({
    home: resolveHome(opts.home),
    ...opts.configFile === void 0 ? {} : { configFile: opts.configFile }
  });
  const budget = settings.hooks.timeoutMs;
  const label = labelOf(event, settings.hooks.recordPrompts);
  const run = await withinBudget(budget, async (signal) => {
    const cp = await Checkpoints.open(event.workspace, {
      home: settings.home,
      maxFileSizeBytes: settings.checkpoints.maxFileSizeBytes,
      maxStoreBytes: settings.checkpoints.maxStoreBytes,
      excludePaths: [settings.artifactsDir],
      identity: settings.identity,
      gitTimeoutMs: Math.min(settings.gitTimeoutMs, budget),
      lockTimeoutMs: budget,
      signal
    });
    return cp.track(label, {
      baseline: event.kind === "baseline",
      beforePrompt: event.kind === "before-prompt",
      session: event.session,
      event: event.event,
      unlessUnchanged: event.kind === "latest"
    });
  });
  if (!run.done)
    return {
      status: "skipped",
      message: `checkpoint skipped: not done within hooks.timeoutMs (${budget} ms) in ${event.workspace}; raise hooks.timeoutMs in config.yaml for a very large workspace`
    };
  const t = run.value;
  const parts = [
    t.unchanged ? `unchanged since latest checkpoint ${t.hash.slice(0, 12)}` : `${event.kind} checkpoint ${t.hash.slice(0, 12)}`,
    t.prompt === void 0 ? null : `prompt ${t.prompt}`,
    event.promptText === void 0 ? null : `prompt text ${event.promptText.length} chars`,
    t.skipped.length > 0 ? `${t.skipped.length} files skipped` : null,
    t.upkeepError === void 0 ? null : `store upkeep failed (${errorText(t.upkeepError)})`
  ];
  return {
    status: "recorded",
    message: `${parts.filter((p) => p !== null).join(", ")} in ${event.workspace}`,
    hash: t.hash,
    ...t.prompt === void 0 ? {} : { prompt: t.prompt }
  };
}
function labelOf(event, recordPrompts) {
  const head = `${event.event}${event.detail ? ` ${event.detail}` : ""}`;
  if (event.promptText === void 0) return head;
  const text = recordPrompts ? event.promptText : event.promptText.trim().replace(/\s+/g, " ");
  const max = recordPrompts ? RECORDED_PROMPT_MAX : PROMPT_LABEL_CHARS;
  return `${head}: ${text.length > max ? `${text.slice(0, max)}\u2026` : text}`;
}
function failure2(error2) {
  return {
    status: "failed",
    message: `checkpoint failed: ${errorText(error2)}`,
    ...isAgentgateError(error2) ? { code: error2.code } : {}
  };
}
function errorText(error2) {
  if (isAgentgateError(error2)) return `${error2.code}: ${error2.message}`;
  return error2 instanceof Error ? error2.message : String(error2);
}
var PROMPT_LABEL_CHARS, RECORDED_PROMPT_MAX;
var init_agent_hook = __esm({
  "src/hooks/agent-hook.ts"() {
    "use strict";
    init_checkpoints2();
    init_errors();
    init_config2();
    init_paths();
    init_budget();
    init_log();
    PROMPT_LABEL_CHARS = 60;
    RECORDED_PROMPT_MAX = 1e4;
  }
});

// types/hooks.ts
var ClaudeCodeEvent, HookOutcome;
var init_hooks = __esm({
  "types/hooks.ts"() {
    "use strict";
    init_zod();
    ClaudeCodeEvent = object({
      session_id: string2().min(1).max(256),
      transcript_path: string2().optional(),
      cwd: string2().min(1),
      hook_event_name: string2().min(1).max(100),
      /** SessionStart: `startup`, `resume`, `clear` or `compact`. */
      source: string2().max(100).optional(),
      /** UserPromptSubmit: the prompt's text. */
      prompt: string2().optional(),
      /** PostToolUse: the tool's name (`Bash`, `Edit`, ...); its input is not kept. */
      tool_name: string2().max(200).optional(),
      tool_input: unknown().optional()
    });
    HookOutcome = object({
      status: _enum(["recorded", "ignored", "invalid", "skipped", "failed"]),
      /** One line for the log and stderr. */
      message: string2(),
      code: string2().optional(),
      hash: string2().optional(),
      prompt: number2().int().positive().optional()
    });
  }
});

// src/hooks/claude-code.ts
async function runClaudeCodeHook(input, opts = {}) {
  const home = opts.settings?.home ?? resolveHome(opts.home);
  const refuse = (status2, message, event, session) => logOutcome(
    home,
    {
      agent: "claude-code",
      ...event === void 0 ? {} : { event },
      ...session === void 0 ? {} : { session }
    },
    { status: status2, message }
  );
  if (typeof input !== "string") return refuse("invalid", input.unreadable);
  if (input.trim() === "") return refuse("ignored", "no event on stdin (empty input)");
  let raw;
  try {
    raw = JSON.parse(input);
  } catch (error2) {
    return refuse("invalid", `stdin is not a JSON event (${error2.message.slice(0, 200)})`);
  }
  const parsed = ClaudeCodeEvent.safeParse(raw);
  if (!parsed.success) {
    const issue2 = parsed.error.issues[0];
    const where = issue2?.path.length ? issue2.path.join(".") : "the event";
    return refuse("invalid", `not a Claude Code hook event: ${where}: ${issue2?.message ?? "invalid"}`);
  }
  const e = parsed.data;
  const kind = KINDS[e.hook_event_name];
  if (kind === void 0)
    return refuse(
      "ignored",
      `no checkpoint for event ${JSON.stringify(e.hook_event_name)} (only ${Object.keys(KINDS).join(", ")})`,
      e.hook_event_name,
      e.session_id
    );
  const detail = e.hook_event_name === "SessionStart" ? e.source : e.tool_name;
  return runAgentHook(
    {
      agent: "claude-code",
      workspace: e.cwd,
      session: e.session_id,
      event: e.hook_event_name,
      kind,
      ...detail === void 0 ? {} : { detail },
      ...kind === "before-prompt" && e.prompt !== void 0 ? { promptText: e.prompt } : {}
    },
    opts
  );
}
var KINDS;
var init_claude_code = __esm({
  "src/hooks/claude-code.ts"() {
    "use strict";
    init_hooks();
    init_paths();
    init_agent_hook();
    KINDS = {
      SessionStart: "baseline",
      UserPromptSubmit: "before-prompt",
      PostToolUse: "latest",
      Stop: "latest"
    };
  }
});

// src/hooks/index.ts
var init_hooks2 = __esm({
  "src/hooks/index.ts"() {
    "use strict";
    init_agent_hook();
    init_claude_code();
  }
});

// src/cli/commands/hook.ts
var hook_exports = {};
__export(hook_exports, {
  HOOK_COMMANDS: () => HOOK_COMMANDS,
  hookCommandFailed: () => hookCommandFailed
});
function report(outcome) {
  if (outcome.status === "recorded" || outcome.status === "ignored") return;
  process.stderr.write(`${PROGRAM} hook: ${outcome.status}: ${printable(outcome.message)}
`);
}
async function readEvent(timeoutMs) {
  const stdin = process.stdin;
  if (stdin.isTTY) return { unreadable: "stdin is a terminal; a hook reads its event from a pipe" };
  const chunks = [];
  let size = 0;
  const result = await new Promise((resolve13) => {
    const timer = setTimeout(
      () => resolve13({ unreadable: `no complete event on stdin within hooks.timeoutMs (${timeoutMs} ms)` }),
      timeoutMs
    );
    const done = (value) => {
      clearTimeout(timer);
      resolve13(value);
    };
    stdin.on("data", (chunk) => {
      size += chunk.length;
      if (size > MAX_EVENT_BYTES) done({ unreadable: `the event is larger than ${MAX_EVENT_BYTES} bytes` });
      else chunks.push(chunk);
    });
    stdin.once("end", () => done(Buffer.concat(chunks).toString("utf8")));
    stdin.once(
      "error",
      (error2) => done({ unreadable: `could not read stdin (${error2.code ?? error2.message})` })
    );
  });
  stdin.destroy();
  return result;
}
async function hookCommandFailed(error2, home) {
  const text = isAgentgateError(error2) ? `${error2.code}: ${error2.message}` : error2 instanceof Error ? error2.message : String(error2);
  const outcome = await logOutcome(
    resolveHome(home),
    { agent: "claude-code" },
    { status: "failed", message: `hook did not run: ${text}` }
  );
  process.stderr.write(`${PROGRAM} hook: failed: ${printable(outcome.message)}
`);
  return 0;
}
var MAX_EVENT_BYTES, claudeCode, HOOK_COMMANDS;
var init_hook = __esm({
  "src/cli/commands/hook.ts"() {
    "use strict";
    init_errors();
    init_hooks2();
    init_paths();
    init_output();
    init_spec();
    MAX_EVENT_BYTES = 64 * 1024 * 1024;
    claudeCode = defineCommand({
      name: "hook claude-code",
      usage: "hook claude-code",
      summary: "Keep checkpoints from a Claude Code hook: reads one hook event (JSON) on stdin.",
      description: 'SessionStart keeps a baseline, UserPromptSubmit the state just before the prompt (numbered per session: "checkpoint restore --prompt N"), PostToolUse and Stop the latest state. Always exits 0 and prints nothing on stdout; problems go to stderr and <home>/logs/hooks.log. Within hooks.timeoutMs (default 5000) or the checkpoint is skipped.',
      options: {},
      positionals: { required: [] },
      examples: ["hook claude-code < event.json"],
      async run(ctx) {
        const started = Date.now();
        const budget = ctx.settings.hooks.timeoutMs;
        const input = await readEvent(budget);
        const left = Math.max(1, budget - (Date.now() - started));
        const outcome = await runClaudeCodeHook(input, {
          settings: { ...ctx.settings, hooks: { ...ctx.settings.hooks, timeoutMs: left } }
        });
        report(outcome);
        return { silent: true, exitCode: 0 };
      }
    });
    HOOK_COMMANDS = [claudeCode];
  }
});

// src/cli/commands/index.ts
async function loadCommand(name) {
  const module = COMMAND_MODULES.find((m) => m.names.includes(name));
  return (await module?.load())?.find((c) => c.name === name);
}
async function loadAllCommands() {
  return (await Promise.all(COMMAND_MODULES.map((m) => m.load()))).flat();
}
var COMMAND_MODULES, COMMAND_NAMES;
var init_commands = __esm({
  "src/cli/commands/index.ts"() {
    "use strict";
    COMMAND_MODULES = [
      {
        names: ["before", "after", "show", "list", "runs", "patch", "stats", "verify", "delete", "cherry-pick"],
        load: async () => (await Promise.resolve().then(() => (init_run_snapshots(), run_snapshots_exports))).RUN_SNAPSHOT_COMMANDS
      },
      { names: ["demo"], load: async () => [(await Promise.resolve().then(() => (init_demo2(), demo_exports))).DEMO_COMMAND] },
      {
        names: ["push", "fetch", "export", "import"],
        load: async () => (await Promise.resolve().then(() => (init_sharing3(), sharing_exports))).SHARING_COMMANDS
      },
      { names: ["report"], load: async () => [(await Promise.resolve().then(() => (init_report3(), report_exports))).REPORT_COMMAND] },
      { names: ["serve"], load: async () => [(await Promise.resolve().then(() => (init_serve3(), serve_exports2))).SERVE_COMMAND] },
      {
        names: [
          "checkpoint track",
          "checkpoint patch",
          "checkpoint diff",
          "checkpoint diff-full",
          "checkpoint restore",
          "checkpoint revert",
          "checkpoint list",
          "checkpoint gc",
          "checkpoint status"
        ],
        load: async () => (await Promise.resolve().then(() => (init_checkpoint2(), checkpoint_exports))).CHECKPOINT_COMMANDS
      },
      { names: ["hook claude-code"], load: async () => (await Promise.resolve().then(() => (init_hook(), hook_exports))).HOOK_COMMANDS }
    ];
    COMMAND_NAMES = COMMAND_MODULES.flatMap((m) => m.names);
  }
});

// src/cli/main.ts
init_errors();
init_commands();
init_json_stream();
init_output();
init_spec();
import { createReadStream as createReadStream4 } from "node:fs";
import { pipeline as pipeline3 } from "node:stream/promises";

// src/cli/version.ts
import { readFileSync as readFileSync2 } from "node:fs";
function packageVersion() {
  if (typeof AGENTGATE_VERSION === "string") return AGENTGATE_VERSION;
  for (const up of ["../../../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync2(new URL(up, import.meta.url), "utf8"));
      if (pkg.name === "agentgate-snapshotter" && typeof pkg.version === "string") return pkg.version;
    } catch {
    }
  }
  return "unknown";
}

// src/cli/main.ts
var GROUPS = ["checkpoint", "hook"];
async function main(argv) {
  const options = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  const json = options.includes("--json");
  process.stdout.on("error", onStdoutError);
  const { words, rest } = findCommand(argv);
  const name = words.join(" ");
  try {
    if (words.length === 0 || GROUPS.includes(name))
      return await withoutCommand(name, options, argv.length === 0, json);
    if (!COMMAND_NAMES.includes(name)) {
      throw new UsageError(`unknown command "${name}"; run "${PROGRAM} --help" for the list`, {
        details: { command: name }
      });
    }
    const command = await loadCommand(name);
    const { values, positionals } = parseCommandLine(command, rest);
    if (values.version === true) return printVersion(json);
    if (values.help === true) return printHelp(commandHelp(command), json);
    const { Context: Context2 } = await Promise.resolve().then(() => (init_context(), context_exports));
    const ctx = await Context2.create(values);
    const result = await command.run(ctx, values, positionals);
    await emit(result, json);
    return "exitCode" in result ? result.exitCode ?? 0 : 0;
  } catch (error2) {
    if (words[0] === "hook" && COMMAND_NAMES.includes(name))
      return (await Promise.resolve().then(() => (init_hook(), hook_exports))).hookCommandFailed(error2, optionValue(options, "--home"));
    return fail(error2, json);
  }
}
function optionValue(options, flag) {
  const at = options.findIndex((o) => o === flag || o.startsWith(`${flag}=`));
  if (at < 0) return void 0;
  const option = options[at];
  return option.includes("=") ? option.slice(flag.length + 1) : options[at + 1];
}
function findCommand(argv) {
  const picked = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") break;
    if (arg.startsWith("-") && arg !== "-") {
      if (takesNext(arg, argv[i + 1])) i++;
      continue;
    }
    picked.push(i);
    if (picked.length === 2 || !GROUPS.includes(arg)) break;
  }
  return { words: picked.map((i) => argv[i]), rest: argv.filter((_, i) => !picked.includes(i)) };
}
function takesNext(arg, next) {
  if (arg.includes("=") || next === void 0 || next.startsWith("-")) return false;
  const global = Object.entries(GLOBAL_OPTIONS).find(
    ([name, d]) => arg === `--${name}` || "short" in d && arg === `-${d.short}`
  );
  if (global) return global[1].type === "string";
  if (/^-[^-]./.test(arg)) return false;
  return !COMMAND_NAMES.some((c) => c.split(" ")[0] === next);
}
async function withoutCommand(group, options, noArguments, json) {
  if (options.includes("--version") || options.includes("-V")) return printVersion(json);
  const asked = options.includes("--help") || options.includes("-h");
  const help = await programHelp(group);
  if (asked) return printHelp(help, json);
  if (!json) process.stderr.write(`${help}

`);
  const what = group === "" ? "no command given" : `"${group}" needs a subcommand`;
  throw new UsageError(`${what}; run "${PROGRAM} ${group === "" ? "" : `${group} `}--help" for the list`, {
    details: { noArguments }
  });
}
async function programHelp(group) {
  const all = await loadAllCommands();
  const listed = group === "" ? all : all.filter((c) => c.name.startsWith(`${group} `));
  const width = Math.max(...listed.map((c) => c.name.length));
  const lines = listed.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${PROGRAM} ${group === "" ? "<command>" : `${group} <subcommand>`} [options]`,
    `${group === "" ? "Commands" : `${group[0]?.toUpperCase()}${group.slice(1)} subcommands`}:
${lines.join("\n")}`,
    `Global options:
${optionLines(GLOBAL_OPTIONS)}`,
    `Run "${PROGRAM} <command> --help" for a command's options and an example.`
  ].join("\n\n");
}
function printHelp(text, json) {
  process.stdout.write(json ? `${JSON.stringify({ help: text })}
` : `${text}
`);
  return 0;
}
function printVersion(json) {
  process.stdout.write(json ? `${JSON.stringify({ version: packageVersion() })}
` : `${packageVersion()}
`);
  return 0;
}
async function emit(result, json) {
  if ("silent" in result) return;
  if ("streamFile" in result || "streamJson" in result) {
    try {
      if ("streamFile" in result)
        await pipeline3(createReadStream4(result.streamFile), process.stdout, { end: false });
      else await writeStreamedJson(result.streamJson, process.stdout);
    } catch (error2) {
      if (!isClosedPipe(error2)) throw error2;
    } finally {
      await result.cleanup?.();
    }
    return;
  }
  const text = json ? JSON.stringify(result.json, null, 2) : result.human(useColour(process.stdout));
  if (text.length > 0) process.stdout.write(`${text}
`);
  if (json && result.warnings !== void 0 && result.warnings.length > 0)
    process.stderr.write(`${JSON.stringify({ warnings: result.warnings })}
`);
  const commands = result.workflowCommands ?? [];
  if (commands.length > 0) (json ? process.stderr : process.stdout).write(`${commands.join("\n")}
`);
}
function isClosedPipe(error2) {
  const code2 = error2?.code;
  return code2 === "EPIPE" || code2 === "ERR_STREAM_DESTROYED";
}
function onStdoutError(error2) {
  if (isClosedPipe(error2)) return;
  process.stderr.write(
    `${PROGRAM}: WRITE_FAILED: could not write the output (${error2.code ?? error2.message})
`
  );
  process.exitCode = 1;
}
function fail(error2, json) {
  if (!isAgentgateError(error2)) {
    const message = error2 instanceof Error ? error2.message : String(error2);
    return report2(
      "INTERNAL",
      `unexpected failure: ${message}; please report it with the command you ran`,
      json,
      1
    );
  }
  const hint = WORKSPACE_CODES.includes(error2.code) ? " (-C, --workspace DIR)" : "";
  return report2(error2.code, `${error2.message}${hint}`, json, error2.exitCode, error2.details);
}
var WORKSPACE_CODES = ["WORKSPACE_NOT_FOUND", "NOT_A_REPOSITORY", "UNSAFE_WORKSPACE"];
function report2(code2, message, json, status2, details = {}) {
  const hasDetails = Object.keys(details).length > 0;
  if (json)
    process.stdout.write(
      `${JSON.stringify({ error: { code: code2, message, ...hasDetails ? { details } : {} } })}
`
    );
  else {
    process.stderr.write(`${PROGRAM}: ${code2}: ${printable(message)}
`);
    if (process.env.AGENTGATE_DEBUG === "1" && typeof details.stderr === "string" && details.stderr !== "")
      process.stderr.write(`git said:
${details.stderr}
`);
  }
  return status2;
}
main(process.argv.slice(2)).then(
  (status2) => {
    process.exitCode = status2;
  },
  (error2) => {
    process.stderr.write(`${PROGRAM}: INTERNAL: ${String(error2)}
`);
    process.exitCode = 1;
  }
);
