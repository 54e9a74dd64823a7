#!/usr/bin/env bash
# System packages the tests need: PostgreSQL (server), Redis (the shared cache), Debian's Chromium for
# Playwright, CJK fonts for screenshots, poppler-utils (pdftoppm/pdffonts: the hall printouts rendered to PNG)
# and LibreOffice Calc (the report workbook printed). Installed explicitly every time, even where the machine
# happens to have them.
set -euo pipefail
PKGS=(postgresql redis-server chromium fonts-noto-cjk poppler-utils libreoffice-calc-nogui)
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "system-deps: not root and no password-less sudo; assuming ${PKGS[*]} are installed" >&2
    exit 0
  fi
else
  SUDO=""
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${PKGS[@]}" >/dev/null
echo "system-deps: ${PKGS[*]} installed"
# axe-core, the accessibility checker the browser tests run in Chromium, from the npm registry into node_modules/
command -v npm >/dev/null 2>&1 || $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends npm >/dev/null
cd "$(dirname "$0")/.."
[ -f node_modules/axe-core/axe.min.js ] || npm install --no-save --no-audit --no-fund --loglevel=error axe-core@4 >/dev/null
echo "system-deps: axe-core $(node -p "require('./node_modules/axe-core/package.json').version" 2>/dev/null || echo '?') in node_modules/"
