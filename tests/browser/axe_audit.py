"""Run axe-core (vendored: tests/browser/vendor/axe.min.js, axe-core 4.14.1, MPL-2.0, licence in
vendor/axe-core.LICENSE) in a real page and report its serious and critical WCAG 2.1 A/AA violations.

It is test tooling only: the file is injected by Playwright into the page under audit and never
served by the site. Each finding names the rule, the page, the viewport and the element, so a
failing test says what to fix and where.
"""
from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = {"serious", "critical"}
SHOWN_NODES = 3  # elements named per rule and page: one fix usually mends them all
SIZES = {"desktop": (1920, 1080), "phone": (390, 844)}

_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({
    target: n.target.join(" "), html: n.html.slice(0, 160), summary: (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 240),
  }))}));
}"""


# A passing effect (the hall's buzz flash fading out) is audited once it has run its course, not mid-fade.
_SETTLED = """() => Promise.race([
  Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null))),
  new Promise((done) => setTimeout(done, 4000)),
])"""


def violations(page, where: str) -> list[str]:
    """The page's serious and critical WCAG 2.1 A/AA violations as it is now, one line per element."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = []
    for rule in page.evaluate(_RUN, WCAG_TAGS):
        if rule["impact"] not in FAILING_IMPACTS:
            continue
        nodes = rule["nodes"]
        more = f" (and {len(nodes) - SHOWN_NODES} more elements)" if len(nodes) > SHOWN_NODES else ""
        for node in nodes[:SHOWN_NODES]:
            found.append(f"{rule['id']} ({rule['impact']}) on {where}: {node['target']} {node['html']!r} "
                         f"-- {node['summary'] or rule['help']}{more}")
    return found


def audit_sizes(page, where: str, sizes=SIZES, shots: Path | None = None) -> list[str]:
    """Audit the page at each viewport size in turn (the same page, resized: the layout follows), and
    with shots, keep a screenshot of each for a person to look at."""
    found = []
    for label, (width, height) in sizes.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # the big screen fits its text to the new size on the next frame
        page.evaluate(_SETTLED)
        found += violations(page, f"{where} at {width}x{height}")
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)
            name = "".join(c if c.isalnum() else "-" for c in f"{where}-{label}")
            page.screenshot(path=str(shots / f"{name}.png"))
    return found
