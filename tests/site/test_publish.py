"""Issue 41: the site is published by a GitHub Pages workflow that runs the Makefile's strict
build and deploys the folder it writes; the README says how."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def test_the_pages_workflow_deploys_the_strict_build():
    flow = yaml.safe_load(WORKFLOW.read_text())
    build = flow["jobs"]["build"]["steps"]
    runs = [s.get("run", "") for s in build]
    assert any(r.startswith("make docs") for r in runs), runs
    make = (ROOT / "Makefile").read_text()
    docs = re.search(r"^docs:.*\n((?:\t.*\n)+)", make, re.M).group(1)
    assert "--strict" in docs and "--site-dir site" in docs, docs
    upload = next(s for s in build if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "site"
    steps = flow["jobs"]["deploy"]["steps"]
    assert any(s.get("uses", "").startswith("actions/deploy-pages") for s in steps)
    strict = next(s for s in build if s.get("run", "").startswith("make docs"))
    assert strict["env"]["POSENC_SITE_URL"].endswith("/")    # the sub-path, for the sitemap
    assert flow["permissions"]["pages"] == "write" and flow["permissions"]["id-token"] == "write"


def test_readme_says_how_to_publish():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Publish", 1)[1].split("\n## ", 1)[0]
    assert ".github/workflows/pages.yml" in section and "git push origin main" in section
