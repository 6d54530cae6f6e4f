#!/usr/bin/env bash
# run.sh — the Windows lane (make test-windows): mcpdeck built for
# windows/amd64 and run under Wine, end to end, and the Windows test
# binaries of every package with Windows-specific code.
#
# Steps:
#   1. Wine (wine64) and MinGW (gcc-mingw-w64-x86-64-win32): installed with
#      apt-get when CI=true and they are missing; elsewhere a missing one
#      skips the lane with a one-line note.
#   2. bcryptprimitives.dll from bcryptprimitives.c: Go 1.26 programs need
#      ProcessPrng, which Wine 8 lacks.
#   3. A private Wine prefix in .cache/wine/prefix (made once, in about
#      half a minute),
#      with no display: DISPLAY is unset and nothing may open a window, and
#      Wine's Mono and Gecko installers are disabled.
#   4. mcpdeck.exe, the programs the tests start (faultserver, fakeeditor),
#      the test binaries (GOOS=windows go test -c) and e2e.test.exe
#      (testdata/wine/e2e: mcpdeck.exe driven as a person would).
#   5. Each test binary under Wine, in its package's directory, and the
#      end-to-end run; a summary of what ran, passed and was skipped under
#      Wine (each such skip names the Wine behaviour: testdata/winetest).
#
# The test binaries are built with one change to Go's standard library
# (-overlay): Wine 8 does not implement FileDispositionInformationEx, so
# os.RemoveAll fails with "unlinkat …: Invalid function" (STATUS_NOT_IMPLEMENTED)
# on every file, and every t.TempDir's cleanup with it. Go already falls back
# to the older delete when Windows answers STATUS_INVALID_INFO_CLASS; the
# overlay makes STATUS_NOT_IMPLEMENTED take that fallback too. Nothing else
# differs, and mcpdeck.exe itself is built without it.
#
# Environment: WINE_PACKAGES (the packages to test, default below),
# WINE_RUN (a -test.run pattern for every test binary), WINE_JOBS (test
# binaries run at once, default 2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache="$root/.cache/wine"
GO="${GO:-go}"

packages=${WINE_PACKAGES:-"model/platform model/config model/private model/cache model/internal/jsonfile transports transports/egress oauth engine ui/serve testdata/winetest"}
jobs=${WINE_JOBS:-2}

note() { echo "test-windows: $*"; }

# --- 1. tools ---------------------------------------------------------------
find_wine() {
	local w
	for w in /usr/lib/wine/wine64 "$(command -v wine64 2>/dev/null)" "$(command -v wine 2>/dev/null)"; do
		if [ -n "$w" ] && [ -x "$w" ]; then
			echo "$w"
			return 0
		fi
	done
	return 1
}
wine=$(find_wine || true)
mingw=$(command -v x86_64-w64-mingw32-gcc || true)
if [ -z "$wine" ] || [ -z "$mingw" ]; then
	if [ "${CI:-}" != "true" ]; then
		echo "note: Wine or MinGW not found (apt-get install wine64 gcc-mingw-w64-x86-64-win32); the Windows lane (make test-windows) is skipped"
		exit 0
	fi
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
	note "installing wine64 gcc-mingw-w64-x86-64-win32"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends wine64 gcc-mingw-w64-x86-64-win32 >/dev/null ||
		{
			$sudo apt-get update -qq
			DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends wine64 gcc-mingw-w64-x86-64-win32 >/dev/null
		}
	wine=$(find_wine)
	mingw=$(command -v x86_64-w64-mingw32-gcc)
fi
wineserver="$(dirname "$wine")/wineserver"
[ -x "$wineserver" ] || wineserver=$(command -v wineserver)

# Wine: its own prefix, no display, no debug channels, no Mono/Gecko
# installers, no desktop menu entries.
unset DISPLAY WAYLAND_DISPLAY
export WINEPREFIX="$cache/prefix" WINEARCH=win64 WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
# A Windows path for a file of this machine (Wine's drive Z: is /).
winpath() { printf 'Z:%s' "${1//\//\\}"; }

start=$SECONDS
rm -rf "$cache/logs"
mkdir -p "$cache/bin" "$cache/test" "$cache/logs"
note "$("$wine" --version), $("$mingw" --version | head -1)"

# --- 2. the ProcessPrng shim ------------------------------------------------
dll="$cache/bcryptprimitives.dll"
if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ] || [ "$here/bcryptprimitives.def" -nt "$dll" ]; then
	"$mingw" -O2 -shared -s -o "$dll" "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
fi

# --- 3. the prefix ------------------------------------------------------------
if [ ! -f "$WINEPREFIX/.mcpdeck-ready" ]; then
	rm -rf "$WINEPREFIX"
	note "making the Wine prefix $WINEPREFIX"
	"$wine" wineboot --init >/dev/null 2>&1 </dev/null
	"$wineserver" -w
	touch "$WINEPREFIX/.mcpdeck-ready"
fi
cp "$dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
# A fresh temporary directory for every run: what a failed test left is
# not the next run's business.
wintemp=$(ls -d "$WINEPREFIX"/drive_c/users/*/AppData/Local/Temp "$WINEPREFIX"/drive_c/users/*/Temp 2>/dev/null | head -1 || true)
[ -z "$wintemp" ] || find "$wintemp" -mindepth 1 -delete 2>/dev/null || true
# One wineserver for the whole run: Wine programs started at once would
# otherwise race to start it, or meet one that is shutting down ("wine
# client error: recvmsg: Connection reset by peer").
"$wineserver" -p
trap '"$wineserver" -k 2>/dev/null || true' EXIT
note "prefix ready ($((SECONDS - start)) s)"

# --- 4. builds ----------------------------------------------------------------
overlay="$cache/overlay"
mkdir -p "$overlay"
deleteat="$("$GO" env GOROOT)/src/internal/syscall/windows/at_windows.go"
sed 's|^\t\tSTATUS_NOT_SUPPORTED:     // the file system|\t\tSTATUS_NOT_SUPPORTED, NTStatus(0xC0000002): // STATUS_NOT_IMPLEMENTED (Wine 8); the file system|' \
	"$deleteat" >"$overlay/at_windows.go.txt"
if cmp -s "$deleteat" "$overlay/at_windows.go.txt"; then
	echo "test-windows: $deleteat changed; update the overlay in $0" >&2
	exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$deleteat" "$overlay/at_windows.go.txt" >"$overlay/overlay.json"

b=$SECONDS
export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
(cd "$root" && "$GO" build -o "$cache/bin/mcpdeck.exe" .)
(cd "$root" && "$GO" build -overlay "$overlay/overlay.json" -o "$cache/bin/" ./testdata/faultserver ./testdata/fakeeditor)
pkgs=()
for p in $packages; do pkgs+=("./$p"); done
rm -f "$cache/test/"*.test.exe
(cd "$root" && "$GO" test -overlay "$overlay/overlay.json" -c -o "$cache/test/" "${pkgs[@]}" ./testdata/wine/e2e)
unset GOOS GOARCH CGO_ENABLED
note "built mcpdeck.exe, 2 test programs and $((${#pkgs[@]} + 1)) test binaries ($((SECONDS - b)) s)"

# --- 5. runs --------------------------------------------------------------------
# Under Wine the test binaries run without CI=true: what CI would require
# of them (Node and npm, tmux, bubblewrap) is Linux's and runs in the
# Linux tests.
export MCPDECK_TEST_PROGRAMS
MCPDECK_TEST_PROGRAMS=$(winpath "$cache/bin")
export MCPDECK_EXE
MCPDECK_EXE=$(winpath "$cache/bin/mcpdeck.exe")
export MCPDECK_UNDER_WINE=1 # testdata/winetest checks that it sees Wine too
run_args=(-test.v -test.timeout=8m)
# The Node tools (testdata/npm) are Linux programs: pointing the tests at
# a directory without them makes those tests skip, instead of finding
# node_modules through drive Z: and starting Linux's node under Wine.
export MCPDECK_NPM_DIR
MCPDECK_NPM_DIR=$(winpath "$cache/no-node-tools")
[ -z "${WINE_RUN:-}" ] || run_args+=("-test.run=$WINE_RUN")

# run_one PKG: its test binary under Wine in its directory; the log in
# .cache/wine/logs, the verdict in .rc.
run_one() {
	local pkg=$1 name=${1##*/} log="$cache/logs/${1//\//_}.log" s=$SECONDS rc=0
	(cd "$root/$pkg" && env -u CI timeout 9m "$wine" "$cache/test/$name.test.exe" "${run_args[@]}" </dev/null >"$log" 2>&1) || rc=$?
	echo "$rc $((SECONDS - s))" >"$log.rc"
}
r=$SECONDS
running=0
for p in $packages testdata/wine/e2e; do
	run_one "$p" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done
wait

failed=0
for p in $packages testdata/wine/e2e; do
	log="$cache/logs/${p//\//_}.log"
	read -r rc took <"$log.rc"
	# top-level tests only; a skip under Wine says "under Wine: WHY"
	pass=$(grep -c '^--- PASS' "$log" || true)
	fail=$(grep -c '^--- FAIL' "$log" || true)
	skip=$(grep -c '^--- SKIP' "$log" || true)
	wineskip=$(grep -c 'under Wine: ' "$log" || true)
	if [ "$rc" = 0 ]; then
		printf 'ok    %-24s %3ds  %3d passed, %2d skipped, %2d cases under Wine\n' "$p" "$took" "$pass" "$skip" "$wineskip"
	else
		printf 'FAIL  %-24s %3ds  %3d passed, %2d failed, %2d skipped (exit %s)\n' "$p" "$took" "$pass" "$fail" "$skip" "$rc"
		grep -v -e '^=== \(RUN\|PAUSE\|CONT\|NAME\)' -e '--- PASS' "$log" | tail -n 150 | sed 's/^/    /'
		failed=1
	fi
done
echo "what Wine cannot do, so skipped under Wine (cases, why):"
cat "$cache"/logs/*.log | sed -n 's/.*under Wine: //p' | sort | uniq -c | sed 's/^ */  /'
note "tests ran in $((SECONDS - r)) s; the lane took $((SECONDS - start)) s"
exit $failed
