#!/bin/sh
# Runs one Neovim scenario of `ptmpl lsp` (tests/editor/SCENARIO.lua) headless:
#   run.sh PTMPL DATA_DIR STATE_DIR SCENARIO.lua
# PTMPL is the binary under test, DATA_DIR tests/data/lsp, STATE_DIR a folder of the build tree
# for Neovim's own files (its LSP log among them). No configuration, plugin or shada is read.
# Exit code: the scenario's (0 pass, 1 fail, 3 watchdog); 4 when the script itself does not run
# (a Lua error outside the scenario); 1 when nvim is missing.
set -eu

if [ $# -ne 4 ]; then
  echo "usage: run.sh PTMPL DATA_DIR STATE_DIR SCENARIO.lua" >&2
  exit 2
fi
if ! command -v nvim >/dev/null 2>&1; then
  echo "nvim is not installed; scripts/setup.sh installs it (Debian's neovim)" >&2
  exit 1
fi

name=$(basename "$4" .lua)
mkdir -p "$3/$name"
PTMPL=$1 PTMPL_LSP_DATA=$2 \
  XDG_CACHE_HOME="$3/$name/cache" XDG_STATE_HOME="$3/$name/state" XDG_DATA_HOME="$3/$name/data" \
  XDG_CONFIG_HOME="$3/$name/config" \
  nvim --headless --clean -u NONE -i NONE -n -c "luafile $4" -c "cquit 4" </dev/null && status=0 || status=$?
if [ "$status" -ne 0 ] && [ -s "$3/$name/cache/nvim/lsp.log" ]; then
  echo "--- end of Neovim's LSP log ($3/$name/cache/nvim/lsp.log) ---" >&2
  tail -n 30 "$3/$name/cache/nvim/lsp.log" >&2
fi
exit "$status"
