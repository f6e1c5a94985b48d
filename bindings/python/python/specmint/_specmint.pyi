"""Type stubs of the native module ``specmint._specmint`` (re-exported by ``specmint``)."""

import os
from typing import Any, TypedDict, Union

from typing_extensions import NotRequired

Data = Union[bytes, str]

class ErrorDict(TypedDict):
    code: str
    path: str
    pointer: str
    message: str
    measured: NotRequired[int]
    limit: NotRequired[int]
    line: NotRequired[int]
    column: NotRequired[int]

class ReportDict(TypedDict):
    valid: bool
    errors: list[ErrorDict]

class Error:
    """One violation: the code, where it is, and what was measured against which limit."""

    @property
    def code(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def pointer(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def measured(self) -> int | None: ...
    @property
    def limit(self) -> int | None: ...
    @property
    def line(self) -> int | None: ...
    @property
    def column(self) -> int | None: ...

class Report:
    """A document's verdict: ``valid``, and the violations in document order."""

    @property
    def valid(self) -> bool: ...
    @property
    def errors(self) -> list[Error]: ...
    def to_dict(self) -> ReportDict:
        """The CLI's JSON verdict (``specmint validate --format json``) less ``type`` and ``file``."""
    def to_json(self) -> str:
        """That verdict as canonical JSON text."""
    def __bool__(self) -> bool: ...

class Spec:
    """The specs of a spec directory, read by the interpreter (``specmint validate --spec DIR``)."""

    @staticmethod
    def load(dir: Union[str, os.PathLike[str]]) -> Spec:
        """Loads and checks every spec of ``dir``; raises ``SpecError`` when one does not check."""
    @property
    def types(self) -> list[str]: ...
    def validate(self, type: str, data: Data, locale: str | None = None) -> Report: ...
    def check(self, type: str, data: Data, locale: str | None = None) -> Report:
        """Like ``validate``, but raises ``ValidationError`` when the document is invalid."""
    def schema(self, type: str, locale: str | None = None) -> dict[str, Any]:
        """TYPE's JSON Schema; with ``locale``, each rule's message in that language as ajv-errors reads it."""

class SpecError(Exception):
    """A spec directory that cannot be read, or a spec in it that does not check."""

class ValidationError(Exception):
    """A document refused by ``check``."""

    report: Report

def validate(type: str, data: Data, locale: str | None = None) -> Report:
    """Judges ``data`` as the bundled TYPE; with ``locale`` (``"zh-TW"``), the messages in that language."""

def check(type: str, data: Data, locale: str | None = None) -> Report:
    """Like ``validate``, but raises ``ValidationError`` when the document is invalid."""

def schema(type: str, locale: str | None = None) -> dict[str, Any]:
    """The bundled TYPE's JSON Schema, as a dict; with ``locale`` (``"zh-TW"``), each rule's message
    in that language as ajv-errors reads it (``specmint schema --locale``); ``ValueError`` when the
    spec has no messages in it."""

def bundled_types() -> list[str]: ...
