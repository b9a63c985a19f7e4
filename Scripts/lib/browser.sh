# Shared by the scripts that drive headless Chromium (report-screenshot.sh, web-walk.sh). Needs
# $script (the script's name, for messages); sets `chromium`, `chromedriver` and `python`, or
# names every missing part in one line and exits 77 (a skip).
browser_find() {
    local missing=() candidate module joined
    chromium="${CHROMIUM_BIN:-}"
    if [[ -z "$chromium" ]]; then
        # Debian's /usr/bin/chromium is a shell wrapper; the binary behind it is the same browser without the wrapper's checks.
        for candidate in /usr/lib/chromium/chromium "$(command -v chromium || true)" "$(command -v chromium-browser || true)"; do
            if [[ -n "$candidate" && -x "$candidate" ]]; then chromium="$candidate" && break; fi
        done
    fi
    [[ -n "$chromium" && -x "$chromium" ]] || missing+=("chromium (apt-get install chromium)")
    chromedriver="${CHROMEDRIVER_BIN:-$(command -v chromedriver || true)}"
    [[ -n "$chromedriver" && -x "$chromedriver" ]] || missing+=("chromedriver (apt-get install chromium-driver)")
    python="$(command -v python3 || true)"
    if [[ -z "$python" ]]; then
        missing+=("python3")
    else
        for module in selenium PIL; do
            "$python" -c "import $module" >/dev/null 2>&1 || missing+=("python module $module (pip install ${module/PIL/pillow})")
        done
    fi
    if ((${#missing[@]})); then
        joined="$(printf '%s, ' "${missing[@]}")"
        echo "$script: missing: ${joined%, }" >&2
        exit 77
    fi
}

# Runs "$@" stopped after $1 seconds (so that a hung browser cannot stall CI), saying so when it was.
browser_bounded() {
    local seconds=$1 status=0
    shift
    local limit=()
    command -v timeout >/dev/null && limit=(timeout --kill-after=5 "$seconds")
    ${limit[@]+"${limit[@]}"} "$@" || status=$?
    if ((status == 124 || status == 137)); then
        echo "$script: the browser run took longer than $seconds s and was stopped" >&2
    fi
    return "$status"
}
