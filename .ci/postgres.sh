# Sourced by .ci/run (and usable by hand): a throwaway PostgreSQL cluster on loopback.
# pg_start sets PG_URL; pg_stop stops the server and removes its data.

# A free port unless one is given, so a server left running on this machine (from
# local tests or an earlier run) cannot block the next run.
_pg_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PG_PORT="${PG_PORT:-$(_pg_free_port)}"
PG_DIR="${PG_DIR:-$(mktemp -d /tmp/pagechat-pg.XXXXXX)}"

_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

pg_start() {
  local bin
  bin="$(_pg_bin)"
  [ -n "$bin" ] || { echo "PostgreSQL is not installed" >&2; return 1; }
  chown postgres "$PG_DIR"
  su postgres -s /bin/sh -c "$bin/initdb -D '$PG_DIR/data' -A trust -U postgres --no-sync >/dev/null"
  su postgres -s /bin/sh -c "$bin/pg_ctl -D '$PG_DIR/data' -l '$PG_DIR/log' -w \
    -o \"-c listen_addresses=127.0.0.1 -p $PG_PORT -k '$PG_DIR' -c fsync=off\" start >/dev/null"
  su postgres -s /bin/sh -c "$bin/createdb -h 127.0.0.1 -p $PG_PORT pagechat_test"
  PG_URL="postgresql+asyncpg://postgres@127.0.0.1:$PG_PORT/pagechat_test"
  export PG_URL
}

pg_stop() {
  local bin
  bin="$(_pg_bin)"
  [ -n "$bin" ] && su postgres -s /bin/sh -c "$bin/pg_ctl -D '$PG_DIR/data' -m fast stop >/dev/null" || true
  rm -rf "$PG_DIR"
}
