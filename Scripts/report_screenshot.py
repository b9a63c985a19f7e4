#!/usr/bin/env python3
"""Renders capital report pages in headless Chromium and checks them (used by report-screenshot.sh).

usage: report_screenshot.py --chromium PATH --chromedriver PATH --outdir DIR --light HTML --dark HTML [--auto HTML]

For each theme (light, dark) and width (phone 390 px, desktop 1280 px) it loads the page from a
file:// URL with no network, writes a full-page PNG report-<width>-<theme>.png and fails on:
  - a SEVERE browser console entry (JS errors, failed loads),
  - anything fetched that is not inline (data:),
  - a blank picture (too few colours, or almost every pixel the background colour),
  - horizontal overflow at phone width (scrollWidth > innerWidth + 1),
  - a body background that does not match the theme (dark must be dark, light light).
With --auto it also loads the auto-theme page under an emulated dark and light preference and
checks the background follows it (no PNG). Labels that overlap in a chart and text with poor
contrast are printed as warnings, not failures.

Prints one line per PNG written and one per warning; on failure prints one line per problem,
each naming the page, and exits 1. Exits 77 when Selenium or Pillow cannot be imported.
"""

import argparse
import base64
import io
import os
import signal
import sys

try:
    from PIL import Image
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError as error:  # the shell script checks first; this is the backstop
    print(f"report-screenshot: missing Python module: {error.name} (pip install selenium pillow)", file=sys.stderr)
    sys.exit(77)

WIDTHS = {"phone": 390, "desktop": 1280}
FIRST_HEIGHT = {"phone": 844, "desktop": 900}
# Chromium refuses captures taller than this; longer pages are cut (and said so).
MAX_HEIGHT = 16000

MEASURE_JS = r"""
const de = document.documentElement, body = document.body;
function bg(el) {
  for (let e = el; e; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    if (c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c)) return c;
  }
  return 'rgb(255, 255, 255)';
}
const resources = performance.getEntriesByType('resource').map(r => r.name).filter(n => !n.startsWith('data:'));
// Elements sticking out to the right of the viewport that are not inside a scrolling box.
const wide = [];
const vw = window.innerWidth;
for (const el of document.querySelectorAll('body *')) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.right <= vw + 1) continue;
  let clipped = false;
  for (let p = el.parentElement; p && p !== body; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX;
    if (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip') { clipped = true; break; }
  }
  if (clipped) continue;
  if (el.parentElement && wide.some(w => w.el.contains(el))) continue;
  const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\s+/).join('.') : '');
  wide.push({el, text: name + ' (right edge ' + Math.round(r.right) + 'px)'});
  if (wide.length >= 5) break;
}
return {
  scrollWidth: de.scrollWidth, scrollHeight: Math.max(de.scrollHeight, body ? body.scrollHeight : 0),
  innerWidth: window.innerWidth, clientWidth: de.clientWidth,
  bodyBackground: bg(body), bodyColor: getComputedStyle(body).color,
  resources: resources, wide: wide.map(w => w.text),
};
"""

# Overlapping <text> in each SVG, and HTML text whose contrast with its background is below 3:1.
LINT_JS = r"""
function rgb(c) {
  const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
}
function lum(c) {
  const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
}
function ratio(a, b) { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
function bgOf(el) {
  for (let e = el; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0.5) return c;
  }
  return {r: 255, g: 255, b: 255, a: 1};
}
const out = [];
const seen = new Set();
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('svg')) continue;
  const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const st = getComputedStyle(el);
  if (st.visibility === 'hidden' || st.display === 'none' || el.getClientRects().length === 0) continue;
  const fg = rgb(st.color); if (!fg) continue;
  const r = ratio(fg, bgOf(el));
  if (r < 3) {
    const key = el.tagName + '.' + el.className + st.color;
    if (seen.has(key)) continue; seen.add(key);
    out.push('low contrast ' + r.toFixed(2) + ':1 ' + el.tagName.toLowerCase() +
      (el.className ? '.' + String(el.className).trim().split(/\s+/).join('.') : '') +
      ' "' + el.textContent.trim().slice(0, 30) + '" (' + st.color + ' on ' + JSON.stringify(bgOf(el)) + ')');
  }
}
document.querySelectorAll('svg').forEach((svg, i) => {
  const texts = Array.from(svg.querySelectorAll('text')).filter(t => t.textContent.trim() && t.getClientRects().length);
  const boxes = texts.map(t => ({t, r: t.getBoundingClientRect()}));
  const sr = svg.getBoundingClientRect();
  let n = 0;
  for (let a = 0; a < boxes.length; a++) {
    const A = boxes[a].r;
    if (A.left < sr.left - 1 || A.right > sr.right + 1 || A.top < sr.top - 1 || A.bottom > sr.bottom + 1) {
      out.push('chart ' + (i + 1) + ': label "' + boxes[a].t.textContent.trim().slice(0, 30) + '" sticks out of the chart');
    }
    for (let b = a + 1; b < boxes.length; b++) {
      const B = boxes[b].r;
      const w = Math.min(A.right, B.right) - Math.max(A.left, B.left);
      const h = Math.min(A.bottom, B.bottom) - Math.max(A.top, B.top);
      if (w > 1 && h > 1) {
        if (n++ < 6) out.push('chart ' + (i + 1) + ': labels overlap: "' + boxes[a].t.textContent.trim().slice(0, 30) +
          '" and "' + boxes[b].t.textContent.trim().slice(0, 30) + '"');
      }
    }
  }
  if (n > 6) out.push('chart ' + (i + 1) + ': ' + (n - 6) + ' more overlapping label pairs');
});
return out;
"""


def luminance(css):
    """Relative luminance (0 black … 1 white) of a computed `rgb(…)`/`rgba(…)` colour, or None."""
    inside = css[css.find("(") + 1 : css.rfind(")")] if "(" in css else ""
    parts = [p for p in inside.replace(",", " ").replace("/", " ").split() if p]
    if len(parts) < 3:
        return None

    def channel(value):
        value = float(value) / 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(p) for p in parts[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def blank_problem(png):
    """Why the picture looks blank, or None."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image if image.width * image.height <= 4_000_000 else image.resize((image.width // 2, image.height // 2))
    colours = small.getcolors(maxcolors=1 << 24) or []
    background = small.getpixel((0, 0))
    total = small.width * small.height
    same = next((count for count, colour in colours if colour == background), 0)
    differ = 1 - same / total
    if len(colours) < 200:
        return f"looks blank: only {len(colours)} distinct colours"
    if differ < 0.02:
        return f"looks blank: {differ:.1%} of pixels differ from the background {background}"
    return None


def make_driver(chromium, chromedriver, loopback=False):
    """A headless Chromium that reaches nothing on the network; with loopback, 127.0.0.1 only."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--force-color-profile=srgb",
        "--proxy-server=127.0.0.1:9",
        "--window-size=1280,900",
    ):
        options.add_argument(flag)
    # Loopback bypasses the dead proxy unless told not to.
    if loopback:
        options.add_argument("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
    else:
        options.add_argument("--host-resolver-rules=MAP * ~NOTFOUND")
        options.add_argument("--proxy-bypass-list=<-loopback>")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A driver path given to Service keeps Selenium Manager (which would download) out of it.
    service = Service(executable_path=chromedriver, log_output=os.devnull)
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def load(driver, url):
    driver.get(url)
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const go = () => requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"
        "if (document.readyState === 'complete') go(); else addEventListener('load', go);"
    )


def severe(driver):
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def render(driver, html, theme, size, outdir, problems, warnings):
    page = f"{size}/{theme}"
    width = WIDTHS[size]
    # The reader prefers the other scheme: an explicit --theme must win over it.
    other = "light" if theme == "dark" else "dark"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": other}]})
    set_viewport(driver, width, FIRST_HEIGHT[size])
    driver.get_log("browser")  # drop what earlier pages logged
    load(driver, "file://" + os.path.abspath(html))
    m = driver.execute_script(MEASURE_JS)

    if size == "phone" and m["scrollWidth"] > m["innerWidth"] + 1:
        where = "; ".join(m["wide"]) or "no single element found"
        problems.append(
            f"{page}: horizontal overflow: scrollWidth {m['scrollWidth']} > innerWidth {m['innerWidth']} ({where})"
        )
    for name in m["resources"]:
        problems.append(f"{page}: fetches {name} (the page must be self-contained)")
    lum = luminance(m["bodyBackground"])
    if lum is None:
        problems.append(f"{page}: cannot read the body background {m['bodyBackground']!r}")
    elif theme == "dark" and lum > 0.2:
        problems.append(f"{page}: dark theme but the body background {m['bodyBackground']} is light (luminance {lum:.2f})")
    elif theme == "light" and lum < 0.6:
        problems.append(f"{page}: light theme but the body background {m['bodyBackground']} is dark (luminance {lum:.2f})")

    for warning in driver.execute_script(LINT_JS):
        warnings.add(f"{theme}{'' if 'contrast' in warning else '/' + size}: {warning}")

    # Full page: make the viewport as tall as the document, then capture it.
    height = min(max(m["scrollHeight"], FIRST_HEIGHT[size]), MAX_HEIGHT)
    if m["scrollHeight"] > MAX_HEIGHT:
        warnings.add(f"{page}: page is {m['scrollHeight']} px tall; the picture stops at {MAX_HEIGHT}")
    set_viewport(driver, width, height)
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"
    )
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {"format": "png", "captureBeyondViewport": True, "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}},
    )
    png = base64.b64decode(shot["data"])
    path = os.path.join(outdir, f"report-{size}-{theme}.png")
    with open(path, "wb") as file:
        file.write(png)

    for entry in severe(driver):
        problems.append(f"{page}: console SEVERE: {entry.get('message', '').strip()}")
    why = blank_problem(png)
    if why:
        problems.append(f"{page}: {why} ({path})")
    print(f"wrote {path} ({width}x{height}, {len(png) // 1024} KiB)", flush=True)


def check_auto(driver, html, problems):
    """The auto page follows an emulated preference: dark background when dark is preferred."""
    set_viewport(driver, WIDTHS["desktop"], FIRST_HEIGHT["desktop"])
    for scheme in ("dark", "light"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        driver.get_log("browser")
        load(driver, "file://" + os.path.abspath(html))
        m = driver.execute_script(MEASURE_JS)
        lum = luminance(m["bodyBackground"]) or 0
        if (scheme == "dark") != (lum < 0.2):
            problems.append(f"auto ({scheme} preferred): body background {m['bodyBackground']} does not follow the preference")
        for entry in severe(driver):
            problems.append(f"auto ({scheme} preferred): console SEVERE: {entry.get('message', '').strip()}")


def main():
    # A parent may hand down blocked signals (a test runner's thread blocks SIGTERM): unblock them,
    # for this process and the chromedriver and Chromium it starts, so a timeout can stop them.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--chromedriver", required=True)
    parser.add_argument("--outdir", required=True)
    parser.add_argument("--light", required=True)
    parser.add_argument("--dark", required=True)
    parser.add_argument("--auto")
    args = parser.parse_args()

    problems, warnings = [], set()
    try:
        driver = make_driver(args.chromium, args.chromedriver)
    except Exception as error:  # noqa: BLE001 - one line is what the caller wants
        print(f"report-screenshot: cannot start Chromium: {str(error).strip().splitlines()[0] if str(error).strip() else error!r}", file=sys.stderr)
        return 1
    try:
        for theme, html in (("light", args.light), ("dark", args.dark)):
            for size in ("phone", "desktop"):
                render(driver, html, theme, size, args.outdir, problems, warnings)
        if args.auto:
            check_auto(driver, args.auto, problems)
    except Exception as error:  # noqa: BLE001
        first = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        problems.append(f"browser error: {type(error).__name__}: {first}")
    finally:
        driver.quit()

    for warning in sorted(warnings):
        print(f"warning: {warning}")
    for problem in problems:
        print(f"FAIL {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
