#!/bin/bash
# Issue 28 item 7, measured the way a loaded machine allows: two builds of the CLI run alternately
# (the order swapped every round), each with its own home, one Codex PostToolUse event per run on
# one 1,000-file repository (one new and one changed file each time). Per run it prints the wall
# and CPU time of the whole process tree (/usr/bin/time: node and every git it waited for) and the
# number of git processes (a tracing `git` wrapper first on PATH); the summary gives the median and
# the most per event (the budget's count runs on one event in 20: src/checkpoints/budget-count.ts;
# the first round may still probe the workspace: probe.json).
#
#   bench/hook-paired.sh BEFORE_BIN AFTER_BIN [ROUNDS]
#
# BIN is a built `dist/bin/agentgate-snapshot.js`; for the merge base, build a copy:
#   git archive $(git merge-base HEAD main) | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/ &&
#   (cd /tmp/base && npm run build)
set -eu
before=$1 after=$2 rounds=${3:-15}
work=$(mktemp -d /tmp/agentgate-hook-paired-XXXXXX)
trap 'rm -rf "$work"' EXIT
real_git=$(command -v git)
mkdir -p "$work/bin" "$work/repo"
cat > "$work/bin/git" <<WRAP
#!/bin/sh
echo "\$1" >> "$work/trace"
exec "$real_git" "\$@"
WRAP
chmod +x "$work/bin/git"
cd "$work/repo"
git init -q && git config user.email bench@example.invalid && git config user.name bench
for d in $(seq 0 9); do mkdir -p "src/d$d"; for f in $(seq 0 99); do echo "line $d $f" > "src/d$d/f$f.txt"; done; done
git add -A && git commit -qm init
event() { printf '{"session_id":"bench","turn_id":"t%s","transcript_path":null,"cwd":"%s","hook_event_name":"%s","model":"m","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"x"},"tool_response":"ok","tool_use_id":"c%s"}' "$1" "$work/repo" "$2" "$1"; }
for n in before after; do
  mkdir -p "$work/home-$n" && printf 'hooks:\n  timeoutMs: 3600000\n' > "$work/home-$n/config.yaml"
  event 0 SessionStart | AGENTGATE_HOME="$work/home-$n" node "${!n}" hook codex > /dev/null
  event 0 PostToolUse | AGENTGATE_HOME="$work/home-$n" node "${!n}" hook codex > /dev/null
done
sleep 3 # past the 2 s in which a changed file's answer is not kept (probe.json)
echo "build wall_s user_s sys_s git_processes"
for i in $(seq 1 "$rounds"); do
  order="after before"; [ $((i % 2)) = 0 ] && order="before after"
  for n in $order; do
    echo "$n $i" > "src/d1/new-$n-$i.txt"; echo "$i" >> src/d2/f1.txt
    : > "$work/trace"
    event "$i" PostToolUse | AGENTGATE_HOME="$work/home-$n" PATH="$work/bin:$PATH" \
      /usr/bin/time -f "%e %U %S" -o "$work/time" node "${!n}" hook codex > /dev/null
    echo "$n $(cat "$work/time") $(wc -l < "$work/trace")"
  done
done | awk '{print} {w[$1]=w[$1]" "$2; c[$1]=c[$1]" "($3+$4); g[$1]=g[$1]" "$5}
  function med(s,  a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  function most(s,  a, n, i, m) { n = split(s, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }
  END { for (n in w) printf "%s: median wall %.3f s, median cpu %.3f s, git processes median %d, most %d\n", n, med(w[n]), med(c[n]), med(g[n]), most(g[n]) }'
