"""Identity document numbers: moved to :mod:`qiyuan.idnumber` (pure, Django-free, so the
tournament desk can check them too); re-exported here for the registry's callers."""

from qiyuan.idnumber import (  # noqa: F401
    CHECK_CHARACTERS,
    CHECK_WEIGHTS,
    EARLIEST_BIRTH_YEAR,
    PROVINCE_CODES,
    RESIDENT_ID_LENGTH,
    InvalidIdNumber,
    ResidentId,
    check_character,
    gender_of_sequence,
    normalize_id_number,
    parse_resident_id,
    validate_document,
    validate_id,
    validate_resident_id,
)
