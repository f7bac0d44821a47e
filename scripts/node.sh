# Sourced by scripts/setup.sh, test.sh and run.sh: puts a Node that the web build can use (>= 20.19, for
# Vite 8) first on PATH. Debian 12 ships Node 18; then the npm registry's own build of Node 20
# (node-linux-<arch>, the registry's only download) is installed once into .tools/node, inside the project.
scalescope_node_ok() {
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
    2>/dev/null
}
scalescope_use_node() {
  local root arch package bin
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64) arch=arm64 ;;
    *) arch=unknown ;;
  esac
  package="node-linux-$arch"
  bin="$root/.tools/node/node_modules/$package/bin"
  [ -x "$bin/node" ] && export PATH="$bin:$PATH"
  scalescope_node_ok && return 0
  if [ "$arch" = unknown ]; then
    echo "setup: the web build needs Node >= 20.19 (found $(node -v 2>/dev/null || echo none)); install one" >&2
    return 1
  fi
  echo "setup: Node $(node -v 2>/dev/null || echo none) is older than the web build needs; installing $package@20.20.2" \
       "from the npm registry into .tools/node"
  npm install --prefix "$root/.tools/node" --no-save --no-audit --no-fund --loglevel=error "$package@20.20.2" >&2
  export PATH="$bin:$PATH"
  scalescope_node_ok || { echo "setup: $bin/node does not run here" >&2; return 1; }
}
