#!/bin/sh
# Make Debian's Chromium available for the browser test (tests/browser/),
# with a CJK font (fonts-noto-cjk) so the Chinese lessons' screenshots show
# characters, not empty boxes.
# Called by `make test`; idempotent: nothing to do when both are there.
# As root it installs the `chromium` package with apt; otherwise it only
# says how to enable the test, which then skips (outside CI) or fails (in CI).
set -u
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
HINT="to enable it, run \`make test\` as root or install chromium (apt-get install chromium)"

have_cjk() { [ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto | grep -q CJK; }
[ -x "$CHROMIUM" ] && have_cjk && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: installing Debian's chromium and fonts-noto-cjk for the browser test (about a minute)"
    if apt-get update -qq && \
       DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null && \
       [ -x "$CHROMIUM" ]; then
        exit 0
    fi
    echo "ensure_chromium: apt-get could not install chromium; $HINT" >&2
else
    echo "ensure_chromium: no Chromium at $CHROMIUM: the browser test will be skipped; $HINT" >&2
fi
# Not fatal here: the other tests still run, and in CI the browser test fails
# with its own message rather than skipping.
exit 0
