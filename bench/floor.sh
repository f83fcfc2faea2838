#!/bin/sh
# The floor: the git work a snapshot cannot avoid, as a plain shell script with no library around
# it. The harness times it next to the library and the CLI.
#
#   floor.sh before WORKSPACE                         the contract's before: stage everything, write the
#                                                     tree, compare it with HEAD's (the dirty check) and
#                                                     commit it as the WIP commit only when it differs;
#                                                     prints the before SHA
#   floor.sh after WORKSPACE BEFORE_SHA OUT_DIR       stage, commit, move the branch, numstat,
#                                                     name-status and the patch (into OUT_DIR)
#   floor.sh track WORKSPACE PRIVATE_GIT_DIR          checkpoint floor: stage into a private index
#                                                     and object store, write the tree, keep a ref
#   floor.sh checkpoint WORKSPACE PRIVATE_GIT_DIR     the same as a commit, as a checkpoint is one: add,
#                                                     write-tree, commit-tree, update-ref
#
# Identity and a clean config come from the environment the harness passes in.
set -eu

cmd=$1
ws=$2
cd "$ws"

# Points git at the private git dir $1 (its own index and objects) for the rest of the script,
# stages the workspace there and sets $tree. Not in a subshell: the exports must stay.
private_tree() {
  GIT_DIR=$1
  GIT_WORK_TREE=$ws
  GIT_INDEX_FILE=$1/index
  export GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
  git add -A
  tree=$(git write-tree)
}

case "$cmd" in
before)
  head=$(git rev-parse --verify HEAD)
  git add -A
  tree=$(git write-tree)
  if [ "$tree" = "$(git rev-parse --verify "$head^{tree}")" ]; then
    echo "$head"
  else
    wip=$(printf '[agentgate] WIP before run\n' | git commit-tree -p "$head" "$tree")
    git update-ref -m floor refs/heads/main "$wip" "$head"
    echo "$wip"
  fi
  ;;
after)
  before=$3
  out=$4
  git add -A
  tree=$(git write-tree)
  commit=$(printf 'floor iteration\n' | git commit-tree -p "$before" "$tree")
  git update-ref -m floor refs/heads/main "$commit" "$before"
  git diff-tree -r -z -M -C --numstat "$before" "$commit" >"$out/numstat"
  git diff-tree -r -z -M -C --name-status "$before" "$commit" >"$out/name-status"
  git diff-tree -r -p --binary --full-index -M -C "$before" "$commit" >"$out/patch.diff"
  echo "$commit"
  ;;
track)
  private_tree "$3"
  git update-ref refs/floor/latest "$tree"
  echo "$tree"
  ;;
checkpoint)
  private_tree "$3"
  commit=$(printf 'floor checkpoint\n' | git commit-tree "$tree")
  git update-ref refs/floor/latest "$commit"
  echo "$commit"
  ;;
*)
  echo "usage: floor.sh before|after|track|checkpoint WORKSPACE ..." >&2
  exit 2
  ;;
esac
