import subprocess
import sys

CORE = ["scorer", "scorer.boards", "scorer.rules", "scorer.game", "scorer.scoring",
        "scorer.longest", "scorer.errors", "scorer.connectivity", "scorer.cli"]


def test_the_core_imports_neither_flask_nor_cv2_nor_sql():
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in CORE)
        + "import scorer; scorer.score, scorer.Game, scorer.longest_path\n"
        + "bad = sorted(m for m in ('flask', 'cv2', 'sqlite3', 'sqlalchemy', 'psycopg')\n"
        + "             if m in sys.modules)\n"
        + "print(','.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
