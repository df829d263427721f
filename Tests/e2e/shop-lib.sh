# What the two ShopServer end-to-end scripts (shop_server.sh, shop_otel.sh) share; sourced, not run.
#
# Before sourcing, a script sets NAME (its name in messages) and TOOLS (the commands it needs). Sourcing checks the
# dashboard's binary and the tools, builds Examples/ShopServer and sets SHOP_BIN. The helpers expect TMUX_CMD and
# SESSION (the dashboard's tmux server and session), `checks` and `failures` (counts), and SERVER_ERR (the shop
# server's standard error, shown when a step fails).

ERRORWATCH_BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
[[ -x "$ERRORWATCH_BIN" ]] || { echo "$NAME: $ERRORWATCH_BIN is not built"; exit 1; }
for tool in $TOOLS; do
    command -v "$tool" >/dev/null || { echo "$NAME: $tool is missing"; exit 1; }
done

echo "$NAME: building Examples/ShopServer"
(cd Examples/ShopServer && swift build --product shop-server 2>&1 | tail -n 3)
SHOP_BIN="${SHOP_BIN:-$(cd Examples/ShopServer && swift build --show-bin-path)/shop-server}"
[[ -x "$SHOP_BIN" ]] || { echo "$NAME: $SHOP_BIN is not built"; exit 1; }

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
screen() { "${TMUX_CMD[@]}" capture-pane -p -t "$SESSION"; }

# wait_until SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds; fails after SECONDS.
wait_until() {
    local limit="$1" deadline
    shift
    deadline=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

# check WHAT COMMAND...: one check, passed when COMMAND succeeds.
check() {
    local what="$1"
    shift
    checks=$((checks + 1))
    if "$@"; then echo "ok   $what"; else failures=$((failures + 1)); echo "FAIL $what"; fi
}

# fail_now WHAT: a step the rest cannot go on without failed; shows the server's last words and the screen.
fail_now() {
    echo "FAIL $1"
    [[ -n "${SERVER_ERR:-}" && -f "$SERVER_ERR" ]] && tail -n 20 "$SERVER_ERR" | sed 's/^/     server| /'
    screen 2>/dev/null | sed 's/^/     screen| /' || true
    echo "$((checks - failures)) passed, $((failures + 1)) failed"
    exit 1
}
