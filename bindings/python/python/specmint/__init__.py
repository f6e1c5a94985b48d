"""specmint's validators from Python: every rule of a spec, as ``specmint validate`` applies it.

* ``validate(TYPE, data)``: judges ``data`` (``bytes`` or ``str``) as a bundled TYPE
  (``task-packet``, ``action-envelope``, ``task-envelope``, ``taskpack``) and returns a ``Report``;
  ``check`` does the same but raises ``ValidationError`` on an invalid document; ``schema(TYPE)``
  is the JSON Schema as a dict.
* ``Spec.load(DIR)``: the specs of a spec directory, read by the interpreter
  (``specmint validate --spec DIR``); ``spec.validate``, ``spec.check`` and ``spec.schema`` as above.
  A spec that does not check raises ``SpecError`` with its ``file:line:col`` diagnostics.

The verdict is computed by the same Rust function the CLI prints (``Report.to_dict()`` is the
CLI's ``--format json`` verdict less ``type`` and ``file``); the GIL is released meanwhile.
"""

from ._specmint import (
    Error,
    Report,
    Spec,
    SpecError,
    ValidationError,
    bundled_types,
    check,
    schema,
    validate,
)

__all__ = [
    "Error",
    "Report",
    "Spec",
    "SpecError",
    "ValidationError",
    "bundled_types",
    "check",
    "schema",
    "validate",
]
