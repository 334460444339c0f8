"""Schemathesis hooks of `npm run fuzz:api` (scripts/fuzz/api.mjs), loaded for the targets whose
operations check requests against stored data or compare fields with each other.

`positive_data_acceptance_beyond_schema` is schemathesis' own `positive_data_acceptance` (ST202,
"Schema-valid request rejected"), with one exception: a 400 answer whose field errors are all
rejections no schema can state passes. Our services answer a schema-valid request that names an id
the tenant does not have (an unknown product, a zone of another branch), breaks a rule of stored
data (a promotion's minimum subtotal) or a rule between two fields (validUntil after validFrom)
with 400 and the field's message: the same status as a schema violation, so allowing 400 for an
operation would hide every mismatch between its document and its service. Here each message must
match one of the patterns api.mjs passes in MARKETPLACE_FUZZ_BEYOND_SCHEMA_ERRORS (a JSON list of
regular expressions, each matched against a whole message); one other message in the same answer,
or an answer without field errors, fails as before. The same goes for a 422 whose problem `code`
is one of MARKETPLACE_FUZZ_BEYOND_SCHEMA_CODES (a JSON list of codes): delivery-assignment answers
an assignment to an installation the tenant does not have, or one that cannot take deliveries,
with 422 and a code, no field errors. provider-delivery answers invalid fields with 422
`request.invalid` in the provider contract's envelope, its messages under `fieldErrors`: a 422 whose
field errors are all rejections no schema can state (an amount's decimals, a callback host that
does not resolve) passes too. api.mjs excludes the built-in check where it loads this one.
"""

from __future__ import annotations

import json
import os
import re

import schemathesis
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import positive_data_acceptance

BEYOND_SCHEMA = [re.compile(p) for p in json.loads(os.environ.get("MARKETPLACE_FUZZ_BEYOND_SCHEMA_ERRORS", "[]"))]
BEYOND_SCHEMA_CODES = frozenset(json.loads(os.environ.get("MARKETPLACE_FUZZ_BEYOND_SCHEMA_CODES", "[]")))


def _body(response):
    try:
        body = json.loads(response.content or b"")
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _only_beyond_schema(response) -> bool:
    body = _body(response)
    # problem+json's `errors`, or the provider contract envelope's `fieldErrors`.
    errors = (body.get("errors") or body.get("fieldErrors")) if body is not None else None
    if not isinstance(errors, dict) or not errors:
        return False
    messages = [m for value in errors.values() for m in (value if isinstance(value, list) else [value])]
    return all(isinstance(m, str) and any(p.fullmatch(m) for p in BEYOND_SCHEMA) for m in messages)


def _stored_state_code(response) -> bool:
    body = _body(response)
    code = body.get("code") if body is not None else None
    return isinstance(code, str) and code in BEYOND_SCHEMA_CODES


@schemathesis.check
def positive_data_acceptance_beyond_schema(ctx, response, case):
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if response.status_code in (400, 422) and _only_beyond_schema(response):
            return None
        if response.status_code == 422 and _stored_state_code(response):
            return None
        raise
