#!/bin/sh
# The memory checker of the sortid extension, run while its image is
# built: the extension is compiled under AddressSanitizer and
# UndefinedBehaviorSanitizer, a throwaway cluster is started with their
# runtimes preloaded into the server, and the pg_regress suite runs
# against it. A report ends the backend, which fails the suite, and so
# the image build, with the report shown. Then the normal build is
# installed over it. (Only the extension's own code is instrumented:
# PostgreSQL's is not, and palloc hands out pieces of larger blocks, so
# ASan sees overruns of the extension's stack and globals, and of memory
# it was handed by malloc, not an overrun inside a palloc block; the
# text codec has its own test with exact-size buffers, make check-idtext.)
set -eu
# On bookworm (PostgreSQL 15, gcc 12) the server with libasan preloaded
# hung at start (postgres -V never returned): there the check is left out
# and says so; it runs on 17 (gcc 14) and 18 (gcc 16).
if [ "${PG_MAJOR:-0}" -lt 17 ]; then
	echo "sanitize-check: left out on PostgreSQL $PG_MAJOR (libasan hangs the server at start there)" >&2
	exit 0
fi
src=/usr/src/sortid-extension
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
make -s -C "$src" with_llvm=no COPT="-Werror $sanitize" clean all install
data=$(mktemp -d)
chown postgres "$data"
chown -R postgres "$src"
runuser -u postgres -- initdb -U postgres -D "$data/pgdata" >/dev/null
preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
runuser -u postgres -- env LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1 pg_ctl -D "$data/pgdata" -l "$data/log" -w \
	-o "-c listen_addresses= -c unix_socket_directories=$data" start >/dev/null
status=0
runuser -u postgres -- env PGHOST="$data" PGUSER=postgres make -s -C "$src" installcheck with_llvm=no || status=$?
runuser -u postgres -- pg_ctl -D "$data/pgdata" -m immediate -w stop >/dev/null || true
if [ "$status" != 0 ]; then
	grep -A 40 'Sanitizer' "$data/log" || cat "$data/log"
	cat "$src/test/regression.diffs" 2>/dev/null || true
	echo "sanitize-check: the extension's pg_regress suite failed under AddressSanitizer and UBSan" >&2
fi
rm -rf "$data" "$src/test/results" "$src/test/regression.diffs" "$src/test/regression.out"
make -s -C "$src" with_llvm=no clean
exit "$status"
