#!/usr/bin/env bash
# The patch series as git sees it: build a git tree from pristine upstream plus
# the first K patches, and export such a tree back to patches/.
# Used by the Maven build (hsqldb-fork/pom.xml) and by scripts/fork.
set -euo pipefail

# Fixed identities and dates: a tree rebuilt from the same inputs has the same
# commit ids, and nothing about the machine leaks into the exported patches.
export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-HSQLDB-A2L}" GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-hsqldb-a2l@localhost}"
export GIT_COMMITTER_NAME="HSQLDB-A2L build" GIT_COMMITTER_EMAIL="hsqldb-a2l@localhost"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
UPSTREAM_DATE="2024-06-30T00:00:00Z"
UPSTREAM_TAG=upstream

die() { echo "series: $*" >&2; exit 1; }

# series_names PATCHDIR: the patch file names listed in PATCHDIR/series, in order
series_names() {
  local f="$1/series"
  [ -f "$f" ] || die "no series file at $f"
  sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$f"
}

# git_in DIR args...: git on DIR's own repository, never the enclosing project's
git_in() { local d="$1"; shift; git -C "$d" -c core.autocrlf=false -c core.safecrlf=false -c am.keepcr=true -c commit.gpgsign=false "$@"; }

# make_tree PRISTINE DEST: DEST becomes a git repository whose only commit
# (tagged "upstream") is the pristine upstream source tree
make_tree() {
  local pristine="$1" dest="$2"
  [ -d "$pristine/org/hsqldb" ] || die "no upstream sources at $pristine (run: mvn -q -pl hsqldb-fork generate-sources)"
  rm -rf "$dest"
  mkdir -p "$dest"
  cp -a "$pristine/." "$dest/"
  rm -f "$dest/.unpacked"*
  git_in "$dest" init -q -b main
  git_in "$dest" add -A
  GIT_AUTHOR_DATE="$UPSTREAM_DATE" GIT_COMMITTER_DATE="$UPSTREAM_DATE" \
    git_in "$dest" commit -q -m "HSQLDB 2.7.4 upstream sources (org.hsqldb:hsqldb:2.7.4:sources)"
  git_in "$dest" tag "$UPSTREAM_TAG"
}

# apply_series DEST PATCHDIR [K]: git am the first K patches (all by default);
# on failure name the patch and show which hunks do not apply
apply_series() {
  local dest="$1" pdir="$2" limit="${3:-}" n=0 name
  [ -n "$limit" ] && [ "$limit" -lt 0 ] && limit=""
  while IFS= read -r name; do
    if [ -n "$limit" ] && [ "$n" -ge "$limit" ]; then break; fi
    n=$((n + 1))
    [ -f "$pdir/$name" ] || die "patch $n ($name) is listed in series but $pdir/$name does not exist"
    if ! GIT_COMMITTER_DATE="$UPSTREAM_DATE" git_in "$dest" am -q --keep-cr --committer-date-is-author-date "$(cd "$pdir" && pwd)/$name" >/dev/null 2>&1; then
      git_in "$dest" am --abort >/dev/null 2>&1 || true
      echo "series: patch $n ($name) does not apply to upstream + patches 1..$((n - 1)):" >&2
      git_in "$dest" apply --check --verbose "$(cd "$pdir" && pwd)/$name" 2>&1 | sed 's/^/  /' >&2 || true
      exit 1
    fi
    echo "$name"
  done < <(series_names "$pdir")
}

# export_tree TREE OUTDIR: write TREE's commits after the upstream tag as
# OUTDIR/NNNN-*.patch and OUTDIR/series, byte-stable for identical commits
export_tree() {
  local tree="$1" out="$2" f
  mkdir -p "$out"
  # no --stat/--summary: without a "---" line git am would take them into the message
  git_in "$tree" format-patch -q --no-numbered --zero-commit --no-signature --full-index \
    --no-stat -o "$out" "$UPSTREAM_TAG..HEAD" >/dev/null
  : > "$out/series"
  for f in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
    [ -e "$f" ] || continue
    # the Date header changes on every amend; nothing reads it
    sed -i '1,/^$/{/^Date: /d}' "$f"
    basename "$f" >> "$out/series"
  done
}

# tree_state TREE: empty if TREE's working tree is clean, else what is dirty
tree_state() { git_in "$1" status --porcelain --untracked-files=all; }

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  cmd="${1:-}"; shift || true
  case "$cmd" in
    # apply PRISTINE DEST PATCHDIR [K]: used by the Maven build. Skips the work
    # when DEST already holds exactly these inputs (keeps builds incremental).
    apply)
      pristine="$1" dest="$2" pdir="$3" limit="${4:-}"
      [ "$limit" = "all" ] && limit=""
      stamp=$( { echo "limit=$limit"; series_names "$pdir" | while IFS= read -r p; do echo "$p"; cat "$pdir/$p" 2>/dev/null; done; } | sha256sum | cut -c1-64)
      if [ -f "$dest/.series-stamp" ] && [ "$(cat "$dest/.series-stamp")" = "$stamp" ]; then
        exit 0
      fi
      make_tree "$pristine" "$dest"
      applied=$(apply_series "$dest" "$pdir" "$limit")
      printf '%s\n' "$applied" | sed '/^$/d' > "$dest/.applied-series"
      echo "$stamp" > "$dest/.series-stamp"
      echo "series: upstream + $(grep -c . "$dest/.applied-series" || true) patch(es) applied in $dest" ;;
    *) die "usage: series.sh apply PRISTINE DEST PATCHDIR [K|all]" ;;
  esac
fi
