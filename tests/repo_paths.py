"""Where the tests find the repository, whatever folder a test module sits in."""

from pathlib import Path

#: The tests' own folder (support modules, golden files, screenshots).
TESTS = Path(__file__).resolve().parent
#: The repository's top: pyproject.toml, docs/, content/, themes/.
REPO = TESTS.parent
#: Checked-in expected outputs (tests/golden/README.md).
GOLDEN = TESTS / "golden"
