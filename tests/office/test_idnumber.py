"""Every rule of the 18-digit resident ID (GB 11643-1999) and of other documents. Pure: no database."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qiyuan.people.idnumber import (
    CHECK_WEIGHTS,
    PROVINCE_CODES,
    InvalidIdNumber,
    check_character,
    normalize_id_number,
    parse_resident_id,
    validate_document,
    validate_id,
    validate_resident_id,
)

TODAY = date(2026, 11, 30)
# The standard's own example: 北京市朝阳区, born 1949-12-31, sequence 002 (female), check X.
GB_EXAMPLE = "11010519491231002X"


def make_id(region: str, born: date, sequence: str) -> str:
    first17 = region + born.strftime("%Y%m%d") + sequence
    return first17 + check_character(first17)


def test_gb11643_weights_are_powers_of_two_mod_11():
    assert CHECK_WEIGHTS == (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def test_gb11643_example_is_valid_and_parses():
    assert validate_resident_id(GB_EXAMPLE, today=TODAY) == []
    rid = parse_resident_id(GB_EXAMPLE)
    assert rid.region_code == "110105" and rid.province_code == "11"
    assert rid.birth_date == date(1949, 12, 31)
    assert rid.sequence == "002" and rid.gender == "F" and rid.check == "X"


def test_gb11643_check_digit_x_stands_for_ten():
    assert check_character("11010519491231002") == "X"


def test_gb11643_lowercase_x_and_spaces_are_normalised():
    assert normalize_id_number(" 110105 19491231 002x ") == GB_EXAMPLE
    assert validate_resident_id("11010519491231002x") == []


def test_gb11643_wrong_length():
    assert validate_resident_id("11010519491231002") == ["wrong length: 17 characters, a resident ID has 18"]
    assert "wrong length" in validate_resident_id(GB_EXAMPLE + "1")[0]


def test_gb11643_first_generation_15_digits_get_a_hint():
    (problem,) = validate_resident_id("110105491231002")
    assert "15-digit" in problem


def test_gb11643_empty_number():
    assert validate_resident_id("") == ["ID number is empty"]


def test_gb11643_letters_inside_are_wrong_characters():
    (problem,) = validate_resident_id("1101051949X231002X")
    assert "wrong characters" in problem


def test_gb11643_only_ascii_digits():
    # other scripts' digits (Gujarati ૮, full-width ８) are digits to Python, not to the standard
    assert "wrong characters" in validate_resident_id("11૮10519491231002X")[0]
    assert validate_resident_id("１１０１０５１９４９１２３１００２X") == []  # NFKC full-width is normalised


def test_gb11643_bad_check_digit():
    (problem,) = validate_resident_id("110105194912310021")
    assert problem == "bad check digit: 1, the first 17 digits give X"


def test_gb11643_region_code_must_start_with_a_province():
    number = make_id("990105", date(1990, 1, 1), "123")
    assert validate_resident_id(number) == ["region code 990105: 99 is not a province code"]
    for province in ("11", "65", "71", "81", "82", "83"):
        assert validate_resident_id(make_id(province + "0101", date(1990, 1, 1), "123")) == []


def test_gb11643_birth_date_must_be_a_calendar_date():
    first17 = "110105" + "19900230" + "123"
    problems = validate_resident_id(first17 + check_character(first17))
    assert problems == ["birth date 19900230 is not a calendar date"]


def test_gb11643_leap_day_is_a_date():
    assert validate_resident_id(make_id("110105", date(2000, 2, 29), "123")) == []


def test_gb11643_birth_date_not_in_the_future():
    tomorrow = TODAY + timedelta(days=1)
    number = make_id("110105", tomorrow, "123")
    assert validate_resident_id(number, today=TODAY) == [f"birth date {tomorrow.isoformat()} is in the future"]
    assert validate_resident_id(make_id("110105", TODAY, "123"), today=TODAY) == []
    # without today (pure code has no clock) the check is not made
    assert validate_resident_id(number) == []


def test_gb11643_birth_date_not_before_1900():
    assert "before 1900" in validate_resident_id(make_id("110105", date(1899, 12, 31), "123"))[0]


def test_gb11643_birth_date_must_match_the_record():
    problems = validate_resident_id(GB_EXAMPLE, birth_date=date(1949, 12, 30))
    assert problems == ["birth date in the ID (1949-12-31) differs from the record (1949-12-30)"]
    assert validate_resident_id(GB_EXAMPLE, birth_date=date(1949, 12, 31)) == []


def test_gb11643_gender_digit_odd_male_even_female():
    male = make_id("310101", date(1990, 5, 6), "131")
    female = make_id("310101", date(1990, 5, 6), "130")
    assert parse_resident_id(male).gender == "M"
    assert parse_resident_id(female).gender == "F"
    assert validate_resident_id(male, gender="M") == []
    assert validate_resident_id(female, gender="F") == []


def test_gb11643_gender_contradicting_the_id():
    (problem,) = validate_resident_id(GB_EXAMPLE, gender="M")
    assert problem == "gender digit 2 means female, the record says male"


def test_gb11643_all_problems_at_once():
    first17 = "99" + "0105" + "19900230" + "122"
    bad = first17 + ("0" if check_character(first17) != "0" else "1")
    problems = validate_resident_id(bad, gender="F", today=TODAY)
    assert len(problems) == 3  # region, calendar date, check digit (gender agrees: 2 is even)
    wrong_check = make_id("110105", date(1990, 1, 2), "121")[:-1]
    wrong_check += "0" if not make_id("110105", date(1990, 1, 2), "121").endswith("0") else "1"
    problems = validate_resident_id(wrong_check, gender="F", birth_date=date(1990, 1, 1), today=TODAY)
    assert len(problems) == 3, problems
    assert any("check digit" in p for p in problems)
    assert any("differs from the record" in p for p in problems)
    assert any("gender digit" in p for p in problems)


def test_gb11643_parse_raises_with_every_problem():
    with pytest.raises(InvalidIdNumber) as caught:
        parse_resident_id("990105199002301221")
    assert len(caught.value.problems) >= 2


def test_passport_format_sanity():
    assert validate_document("passport", "E12345678") == []
    assert validate_document("passport", "tz1234567") == []  # normalised to upper case
    assert "looks wrong" in validate_document("passport", "E1")[0]
    assert "looks wrong" in validate_document("passport", "E123 4567!")[0]
    assert validate_document("passport", "") == ["document number is empty"]


def test_other_documents_format_sanity():
    assert validate_document("other", "HK/123456") == []
    assert "looks wrong" in validate_document("other", "#")[0]


def test_validate_id_dispatches_on_the_document_type():
    assert validate_id("resident", GB_EXAMPLE, gender="M")
    assert validate_id("passport", GB_EXAMPLE, gender="M") == []


# -- properties ------------------------------------------------------------------------------

provinces = st.sampled_from(sorted(PROVINCE_CODES))
valid_ids = st.builds(
    lambda p, rest, born, seq: make_id(p + rest, born, seq),
    provinces,
    st.text(alphabet="0123456789", min_size=4, max_size=4),
    st.dates(min_value=date(1900, 1, 1), max_value=TODAY),
    st.text(alphabet="0123456789", min_size=3, max_size=3),
)


@given(valid_ids)
def test_gb11643_generated_valid_ids_validate(number):
    assert validate_resident_id(number, today=TODAY) == []
    rid = parse_resident_id(number, today=TODAY)
    assert validate_resident_id(number, birth_date=rid.birth_date, gender=rid.gender, today=TODAY) == []


@given(valid_ids, st.integers(min_value=0, max_value=17), st.sampled_from("0123456789X"))
def test_gb11643_any_single_character_change_is_caught(number, position, replacement):
    if number[position] == replacement:
        replacement = "0" if replacement != "0" else "1"
    changed = number[:position] + replacement + number[position + 1 :]
    assert validate_resident_id(changed, today=TODAY) != []
