"""The Python API: reports, exceptions, schemas, str and bytes, the GIL released."""
import json
import pathlib
import threading

import pytest

import specmint

ROOT = pathlib.Path(__file__).resolve().parents[3]
ACCEPTANCE = ROOT / "tests" / "acceptance" / "spec"
MINIMAL_PACKET = {
    "packet_id": "pk-1",
    "goal_id": "g-1",
    "round": 1,
    "from_role": "planner",
    "to_role": "executor",
    "objective": "one sentence",
    "output_format": "markdown",
}


def test_a_valid_packet():
    report = specmint.validate("task-packet", json.dumps(MINIMAL_PACKET).encode())
    assert report.valid and bool(report) and report.errors == []
    assert report.to_dict() == {"valid": True, "errors": []}
    assert json.loads(report.to_json()) == report.to_dict()


def test_str_and_bytes_get_the_same_verdict():
    doc = dict(MINIMAL_PACKET, objective="x" * 300, provider="openai")
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    by_str = specmint.validate("task-packet", text)
    by_bytes = specmint.validate("task-packet", text.encode())
    assert not by_str.valid
    assert by_str.to_dict() == by_bytes.to_dict()
    first = by_str.errors[0]
    assert first.code and first.pointer.startswith("/") and first.line >= 2 and first.column >= 1


def test_check_raises_with_the_report():
    specmint.check("task-packet", json.dumps(MINIMAL_PACKET))
    with pytest.raises(specmint.ValidationError) as raised:
        specmint.check("task-packet", b"{}")
    assert isinstance(raised.value.report, specmint.Report)
    assert not raised.value.report.valid


def test_unknown_type_and_wrong_data():
    with pytest.raises(ValueError, match="unknown TYPE `nope`"):
        specmint.validate("nope", b"{}")
    with pytest.raises(ValueError, match=r"unknown TYPE `task_packet` \(did you mean `task-packet`\? one of: "):
        specmint.validate("task_packet", b"{}")
    with pytest.raises(TypeError):
        specmint.validate("task-packet", {"a": 1})
    assert specmint.bundled_types() == ["action-envelope", "task-envelope", "task-packet", "taskpack"]


def test_spec_directory():
    spec = specmint.Spec.load(ACCEPTANCE)
    assert spec.types == ["webhook-event"]
    schema = spec.schema("webhook-event")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert not spec.validate("webhook-event", b"[]").valid
    with pytest.raises(specmint.ValidationError):
        spec.check("webhook-event", "{}")
    with pytest.raises(ValueError, match="unknown TYPE"):
        spec.validate("task-packet", b"{}")
    # TYPE is the file stem in kebab case: the stem as written gets a did-you-mean.
    with pytest.raises(ValueError) as raised:
        spec.validate("webhook_event", b"{}")
    assert str(raised.value).startswith("unknown TYPE `webhook_event` (did you mean `webhook-event`? specs in `")


def test_a_folder_with_no_spec_raises_spec_error(tmp_path):
    (tmp_path / "notes.md").write_text("# Not a spec: no sidecar\n")
    with pytest.raises(specmint.SpecError) as raised:
        specmint.Spec.load(tmp_path)
    assert str(raised.value) == f"`{tmp_path}` holds no spec: a spec is a `<name>.md` with its `<name>.toml` sidecar"


def test_bundled_schema_is_the_emitted_one():
    emitted = json.loads((ROOT / "generated" / "schema" / "task_packet.schema.json").read_text())
    assert specmint.schema("task-packet") == emitted


def test_a_spec_that_does_not_check_raises_spec_error(tmp_path):
    md = (ACCEPTANCE / "webhook_event.md").read_text()
    (tmp_path / "webhook_event.md").write_text(md)
    (tmp_path / "webhook_event.toml").write_text((ACCEPTANCE / "webhook_event.toml").read_text() + "\n[nonsense]\nx = 1\n")
    with pytest.raises(specmint.SpecError, match=r"webhook_event\.toml:\d+:\d+"):
        specmint.Spec.load(tmp_path)
    with pytest.raises(specmint.SpecError):
        specmint.Spec.load(tmp_path / "missing")


def test_threads_validate_in_parallel():
    # The GIL is released while a document is judged: threads share one Spec safely.
    spec = specmint.Spec.load(ACCEPTANCE)
    results = []

    def work():
        for _ in range(50):
            results.append(spec.validate("webhook-event", b"{}").valid)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [False] * 200
