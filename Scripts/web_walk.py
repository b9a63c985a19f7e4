#!/usr/bin/env python3
"""Walks capital serve's web page in headless Chromium as a person would (used by web-walk.sh).

usage: web_walk.py --chromium PATH --chromedriver PATH --url URL --user NAME --password TEXT --outdir DIR

At phone width (390 px): signs in through the form, reads what can be spent, adds an expense of
--amount through the quick add and reads it again (it must be exactly --amount less), pays the
first bill in full with its pay button (the page must say so and list one bill fewer); then at
desktop width (1280 px) the same page; then signs out (the page must ask to sign in again, and
so must a reload). Writes web-phone.png and web-desktop.png (the first screen) to DIR. Fails on a
SEVERE console entry (a Content-Security-Policy refusal is one), anything fetched from elsewhere,
horizontal overflow at phone width, or the balance chart's hover script not running (the policy
must allow it by its hash). Prints one line per step; on failure one line per problem, exit 1.
"""

import argparse
import os
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_screenshot import load, make_driver, set_viewport, severe  # noqa: E402

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.expected_conditions import staleness_of
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:
    print(f"web-walk: missing Python module: {error.name} (pip install selenium)", file=sys.stderr)
    sys.exit(77)

# Waits for the page to finish loading and paint.
SETTLED_JS = (
    "const done = arguments[arguments.length - 1];"
    "const go = () => requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"
    "if (document.readyState === 'complete') go(); else addEventListener('load', go);"
)

PAGE_JS = r"""
const resources = performance.getEntriesByType('resource').map(r => r.name);
return {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, resources: resources};
"""


class Walk:
    def __init__(self, driver, url):
        self.driver, self.url, self.problems = driver, url.rstrip("/"), []

    def step(self, text):
        print(f"web-walk: {text}", flush=True)

    def check(self, where):
        """The page now: nothing SEVERE in the console, nothing fetched from elsewhere."""
        for entry in severe(self.driver):
            self.problems.append(f"{where}: console SEVERE: {entry.get('message', '').strip()}")
        page = self.driver.execute_script(PAGE_JS)
        for name in page["resources"]:
            if not name.startswith(self.url):
                self.problems.append(f"{where}: fetches {name}")
        return page

    def submit(self, form):
        """Sends `form` with its submit button and waits for the page it leads to."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(self.driver, 30).until(staleness_of(old))
        self.driver.execute_async_script(SETTLED_JS)
        alert = self.one("[role=alert]")
        if alert is not None:
            self.problems.append(f"{self.driver.current_url}: the page says: {alert.text}")

    def can_spend(self):
        return Decimal(self.driver.find_element(By.ID, "can-spend").get_attribute("data-value"))

    def one(self, selector):
        found = self.driver.find_elements(By.CSS_SELECTOR, selector)
        return found[0] if found else None


def main():
    parser = argparse.ArgumentParser()
    for name in ("chromium", "chromedriver", "url", "user", "password", "outdir"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--amount", default="350")
    args = parser.parse_args()
    driver = make_driver(args.chromium, args.chromedriver, loopback=True)
    walk = Walk(driver, args.url)
    try:
        run(walk, args)
    except Exception as error:  # a missing element or a failed load: one line, not a trace
        walk.problems.append(f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    finally:
        driver.quit()
    for problem in walk.problems:
        print(f"web-walk: FAILED: {problem}", file=sys.stderr)
    return 1 if walk.problems else 0


def run(walk, args):
    driver = walk.driver
    set_viewport(driver, 390, 844)
    driver.get_log("browser")
    load(driver, walk.url + "/")
    form = walk.one("form[action='/session']")
    if form is None:
        walk.problems.append("/: no sign-in form")
        return
    walk.check("sign-in page")
    form.find_element(By.NAME, "user").send_keys(args.user)
    form.find_element(By.NAME, "password").send_keys(args.password)
    walk.submit(form)
    before = walk.can_spend()
    page = walk.check("signed in")
    walk.step(f"signed in as {args.user}: can spend {before}")
    if page["scrollWidth"] > page["innerWidth"] + 1:
        walk.problems.append(f"phone width: horizontal overflow ({page['scrollWidth']} > {page['innerWidth']})")

    # The hover read-out: the report's script runs only if the policy allows it by its hash.
    chart = walk.one("#balance-chart")
    if chart is not None:
        driver.execute_script(
            "const svg = arguments[0], r = svg.getBoundingClientRect();"
            "svg.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));",
            chart,
        )
        readout = driver.find_element(By.ID, "balance-readout").text
        if not readout:
            walk.problems.append("the balance chart's hover script did not run (blocked by the page's policy?)")
        else:
            walk.step(f"the chart's script runs: {readout}")

    form = driver.find_element(By.ID, "quick-add")
    form.find_element(By.NAME, "amount").send_keys(args.amount)
    categories = Select(form.find_element(By.NAME, "category"))
    names = [option.text for option in categories.options]
    categories.select_by_visible_text("Groceries" if "Groceries" in names else names[0])
    form.find_element(By.NAME, "note").send_keys("coffee <script>alert(1)</script>")
    walk.submit(form)
    walk.check("after the expense")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(args.outdir, "web-phone.png"))
    walk.step(f"wrote {os.path.join(args.outdir, 'web-phone.png')}")
    after = walk.can_spend()
    walk.step(f"added an expense of {args.amount}: can spend {after}")
    if before - after != Decimal(args.amount):
        walk.problems.append(f"can-spend went from {before} to {after}, not down by {args.amount}")

    bills = driver.find_elements(By.CSS_SELECTOR, "#bills form")
    if bills:
        first = bills[0]
        what = first.find_element(By.CSS_SELECTOR, ".what").text
        walk.submit(first)
        walk.check("after paying a bill")
        said = walk.one("[role=status]")
        left = driver.find_elements(By.CSS_SELECTOR, "#bills form")
        walk.step(f"paid {what}: {said.text if said else 'nothing said'}")
        if said is None or "Paid" not in said.text:
            walk.problems.append("paying a bill: the page did not say it was paid")
        if len(left) != len(bills) - 1:
            walk.problems.append(f"paying a bill in full: {len(left)} bills listed after, {len(bills)} before")
    else:
        walk.problems.append("no bill to pay on the page (the sample has some)")

    set_viewport(driver, 1280, 900)
    load(driver, driver.current_url)
    walk.check("desktop width")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(args.outdir, "web-desktop.png"))
    walk.step(f"wrote {os.path.join(args.outdir, 'web-desktop.png')}")

    walk.submit(driver.find_element(By.CSS_SELECTOR, "form[action='/session/end']"))
    load(driver, walk.url + "/")
    if walk.one("form[action='/session']") is None or walk.one("#can-spend") is not None:
        walk.problems.append("after signing out the page does not ask to sign in")
    else:
        walk.step("signed out")
    walk.check("signed out")


if __name__ == "__main__":
    sys.exit(main())
