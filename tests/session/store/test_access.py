"""session/store/access.py: table tokens hashed with SHA-256, the director password with scrypt."""

from __future__ import annotations

import hashlib
import json

import pytest

from bridgescore.errors import RecordError
from bridgescore.session.store.access import PasswordHash, new_password, new_token, token_digest


def test_a_token_carries_256_random_bits_in_url_safe_text() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    for token in tokens:
        # token_urlsafe(32): 32 bytes in base64url without padding is 43 characters,
        # 6 bits each: at least 128 bits as the issue asks.
        assert len(token) == 43 and len(token) * 6 >= 256
        assert set(token) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def test_the_stored_digest_is_the_tokens_sha256() -> None:
    assert token_digest("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"  # FIPS 180-2 example
    )


def test_a_password_is_four_groups_of_four_unambiguous_characters() -> None:
    password = new_password()
    groups = password.split("-")
    assert [len(g) for g in groups] == [4, 4, 4, 4]
    assert not set(password) & set("01lIoO")


def test_the_password_hash_is_scrypt_with_its_salt_and_cost(product_scrypt: None) -> None:
    # (The suite hashes at a lower cost, tests/conftest.py: the product's is put back.)
    stored = PasswordHash.make("k7qm-x2pd-9fwt-h3ne")
    data = json.loads(stored.to_json())
    assert data["scheme"] == "scrypt"
    assert (data["n"], data["r"], data["p"]) == (2**14, 8, 1)
    assert len(bytes.fromhex(data["salt"])) == 16
    # An independent scrypt over the same salt and cost gives the stored digest.
    expected = hashlib.scrypt(
        b"k7qm-x2pd-9fwt-h3ne",
        salt=bytes.fromhex(data["salt"]),
        n=2**14,
        r=8,
        p=1,
        maxmem=64 * 2**20,
        dklen=32,
    )
    assert data["digest"] == expected.hex()
    assert "k7qm" not in stored.to_json()
    assert PasswordHash.from_json(stored.to_json()) == stored


def test_verify_accepts_the_password_only() -> None:
    stored = PasswordHash.make("secret")
    assert stored.verify("secret")
    assert not stored.verify("Secret")
    assert not stored.verify("")
    assert not stored.verify(None)  # type: ignore[arg-type]


def test_two_hashes_of_one_password_differ_by_their_salt() -> None:
    assert PasswordHash.make("same").digest != PasswordHash.make("same").digest


@pytest.mark.parametrize(
    "text", ["", "{", '{"scheme": "md5", "salt": "", "n": 1, "r": 1, "p": 1, "digest": ""}', "[]"]
)
def test_an_unreadable_stored_password_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError, match="stored director password cannot be read"):
        PasswordHash.from_json(text)
