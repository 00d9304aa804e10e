"""The upload form under damaged multipart bodies (hypothesis; tests/fuzzing.py mutations).

Whatever the body (a damaged session file, a wrong encoding, a file past the size
limit, fields under the wrong names, hostile file names), the answer is a 4xx
with a message or a 200 that stored the event, never a 5xx; and the only files
the server ever writes are complete events directly inside the events directory,
under a name of its own making.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")
pytest.importorskip("multipart", reason="python-multipart is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient

from bridgescore.web import WebSettings, create_app
from fuzzing import FULL, mutated_bytes

SESSION = (Path(__file__).parents[1] / "data" / "session_upload.pbn").read_bytes()
LIMIT = 8192
EXAMPLES = 300 if FULL else 30
STORED = re.compile(r"upload-\d{8}-\d{6}-[0-9a-f]{8}\.db")
MESSAGE = re.compile(r'<p class="error" role="alert">[^<]+</p>|"detail": ?"[^"]+"')

# What clients put in the filename of a multipart part: paths, traversal, odd bytes.
FILENAMES = st.sampled_from(
    [
        "s.pbn",
        "s.csv",
        "",
        "../../escape.pbn",
        "/etc/passwd",
        "..\\..\\win.pbn",
        "a/b/c.pbn",
        ".hidden.db",
        "nul\x00.pbn",
        "é.pbn",
        "x" * 300 + ".pbn",
    ]
) | st.text(max_size=40)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    root = tmp_path_factory.mktemp("upload")
    events = root / "events"
    settings = WebSettings(events=events, solver_workers=1, warm_solver=False, max_upload=LIMIT)
    with TestClient(create_app(settings)) as client:
        yield client, events


def _check_directory(events: Path) -> None:
    parent = events.parent
    # Nothing is written beside the events directory, and inside it only finished events.
    assert sorted(p.name for p in parent.iterdir()) in ([], ["events"])
    if events.exists():
        for path in events.iterdir():
            assert path.is_file() and STORED.fullmatch(path.name), path


def _check_answer(status: int, text: str) -> None:
    assert status < 500, text[:500]
    if status >= 400:
        assert MESSAGE.search(text), (status, text[:500])
    else:
        assert status == 200 and 'id="uploaded"' in text, text[:500]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    data=mutated_bytes(SESSION.decode()),
    filename=FILENAMES,
    field=st.sampled_from(["file", "file", "File", "upload", "name"]),
    kind=st.sampled_from(["pairs", "teams", "", "rubber", "pairs\x00", "ÿ"]),
    name=st.text(max_size=120),
)
def test_damaged_uploads_are_answered_with_a_message(
    site: tuple[TestClient, Path], data: bytes, filename: str, field: str, kind: str, name: str
) -> None:
    client, events = site
    response = client.post(
        "/upload", files={field: (filename, data)}, data={"kind": kind, "name": name}
    )
    _check_answer(response.status_code, response.text)
    _check_directory(events)


FRAMED = (
    '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="s.pbn"\r\n'
    "Content-Type: application/octet-stream\r\n\r\n"
    + SESSION.decode()
    + '\r\n--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\npairs\r\n--XyZ--\r\n'
)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=mutated_bytes(FRAMED))
def test_damaged_multipart_framing_is_answered_with_a_message(
    site: tuple[TestClient, Path], body: bytes
) -> None:
    # The multipart envelope itself damaged: boundaries, headers, CRLFs.
    client, events = site
    response = client.post(
        "/upload", content=body, headers={"Content-Type": "multipart/form-data; boundary=XyZ"}
    )
    _check_answer(response.status_code, response.text)
    _check_directory(events)


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1", "utf-32", "cp1252"])
def test_a_session_in_another_encoding_is_refused_or_read(
    site: tuple[TestClient, Path], encoding: str
) -> None:
    client, events = site
    text = SESSION.decode().replace("Tuesday", "Tüesday é")
    response = client.post("/upload", files={"file": ("s.pbn", text.encode(encoding))})
    _check_answer(response.status_code, response.text)
    _check_directory(events)


@pytest.mark.parametrize("size", [LIMIT + 1, 10 * LIMIT, 3 * 1024 * 1024])
def test_files_past_the_limit_are_413_and_nothing_is_stored(
    site: tuple[TestClient, Path], size: int
) -> None:
    client, events = site
    before = sorted(events.iterdir()) if events.exists() else []
    data = (SESSION * (size // len(SESSION) + 1))[:size]
    response = client.post("/upload", files={"file": ("big.pbn", data)})
    assert response.status_code == 413
    assert f"limit is {LIMIT} bytes" in response.json()["detail"]
    after = sorted(events.iterdir()) if events.exists() else []
    assert after == before
