"""The API description as OpenAPI 3.0 for the ``/docs`` page.

FastAPI emits OpenAPI 3.1.0 (``/openapi.json``, unchanged), but the swagger-ui the server ships
(``swagger-ui-bundle``, swagger-ui 4.15.5, served locally: no CDN) reads only 2.0 and 3.0 and
shows "Unable to render this definition" for 3.1. The 3.1 forms pydantic writes have exact 3.0
spellings, so ``/docs`` reads a 3.0.3 copy:

* ``anyOf: [X, {"type": "null"}]`` (an ``Optional``) is ``X`` with ``nullable: true`` (a ``$ref``
  with siblings is wrapped in ``allOf``, since 3.0 ignores a ``$ref``'s siblings);
* ``type: [X, "null"]`` is ``type: X, nullable: true``; ``const: v`` is ``enum: [v]``;
* numeric ``exclusiveMinimum``/``exclusiveMaximum`` are ``minimum``/``maximum`` with the 3.0
  boolean flag; a schema's ``examples`` list is its first ``example``;
* ``prefixItems`` (tuples) become ``items: {anyOf: [...]}`` with the same length bounds.
"""

from __future__ import annotations

from typing import Any

#: the version the shipped swagger-ui reads
OPENAPI_30 = "3.0.3"
_NULL = {"type": "null"}
#: a 3.1 bound and the 3.0 spelling: (3.1 key, 3.0 bound key)
_EXCLUSIVE = (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum"))

JSON = Any  # a JSON value: dict, list, str, number, bool or None


def _schema(node: dict[str, JSON]) -> dict[str, JSON]:
    """One schema object, its children already converted."""
    out = dict(node)
    for key in ("anyOf", "oneOf"):
        alts = out.get(key)
        if isinstance(alts, list) and _NULL in alts:
            rest = [a for a in alts if a != _NULL]
            del out[key]
            out["nullable"] = True
            if len(rest) == 1 and "$ref" in rest[0]:
                out["allOf"] = rest
            elif len(rest) == 1:
                out = {**rest[0], **out}
            else:
                out[key] = rest
    kind = out.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        if len(kinds) < len(kind):
            out["nullable"] = True
        if len(kinds) == 1:
            out["type"] = kinds[0]
        else:
            del out["type"]
            out["anyOf"] = [{"type": k} for k in kinds]
    if "const" in out:
        out["enum"] = [out.pop("const")]
    for key, bound in _EXCLUSIVE:
        value = out.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[bound] = value
            out[key] = True
    examples = out.get("examples")
    if isinstance(examples, list):
        del out["examples"]
        if examples:
            out["example"] = examples[0]
    if "prefixItems" in out:
        out["items"] = {"anyOf": out.pop("prefixItems")}
    return out


#: keys whose value maps names to schemas
_SCHEMA_MAPS = ("schemas", "properties", "$defs", "patternProperties")


def _convert(node: JSON, in_schema: bool) -> JSON:
    """``node`` with every schema below it converted (``in_schema``: ``node`` is a schema)."""
    if isinstance(node, list):
        return [_convert(v, in_schema) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, JSON] = {}
    for key, value in node.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _convert(v, True) for name, v in value.items()}
        else:
            out[key] = _convert(value, in_schema or key == "schema")
    return _schema(out) if in_schema else out


def openapi_30(doc: dict[str, JSON]) -> dict[str, JSON]:
    """A copy of the OpenAPI 3.1 description ``doc`` written as OpenAPI 3.0.3 (same paths,
    operations and fields)."""
    out = _convert(doc, False)
    out["openapi"] = OPENAPI_30
    return dict(out)


__all__ = ["openapi_30", "OPENAPI_30"]
