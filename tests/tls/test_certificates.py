"""The score book's certificate authority and server certificate (scorekeeper.tls.certificates):
what a tablet's browser checks, read back with cryptography's own verifier."""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import stat
from unittest import mock

import pytest
from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from scorekeeper.platform import network
from scorekeeper.tls import certificates
from scorekeeper.tls.certificates import Names

NOW = dt.datetime(2026, 12, 2, 18, 0, tzinfo=dt.UTC)
# The laptop of tests/web/test_serve.py: Wi-Fi, a container bridge, a VPN, and loopback.
LAPTOP = {"lo": ["127.0.0.1"], "wlan0": ["192.168.1.20"], "docker0": ["172.17.0.1"]}
# Its interfaces' networks, as `network.machine_networks` reads them.
LAPTOP_NETWORKS = ("127.0.0.0/8", "192.168.1.0/24", "172.17.0.0/16", "::1/128")


def laptop_names(addresses=None, extra=()) -> Names:
    if addresses is None:
        addresses = network.tablet_addresses("0.0.0.0", LAPTOP, preferred="192.168.1.20")
    return certificates.machine_names(
        addresses, extra, hostname="ann-laptop", fqdn="ann-laptop", networks=LAPTOP_NETWORKS
    )


def fingerprint_of(folder) -> str | None:
    authority = certificates.read_authority(folder)
    return authority and authority.fingerprint


def load(path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def alternative_names(certificate: x509.Certificate) -> set[str]:
    sans = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(sans.get_values_for_type(x509.DNSName)) | {
        str(address) for address in sans.get_values_for_type(x509.IPAddress)
    }


def verifies(folder, name: str, at: dt.datetime = NOW, leaf=None) -> bool:
    """Whether a browser that trusts only this folder's authority accepts the server's
    certificate (or `leaf`) for `name`."""
    store = Store([load(folder / certificates.AUTHORITY_CERTIFICATE)])
    try:
        subject = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        subject = x509.DNSName(name)
    verifier = PolicyBuilder().store(store).time(at).build_server_verifier(subject)
    try:
        verifier.verify(leaf or load(folder / certificates.SERVER_CERTIFICATE), [])
    except VerificationError:
        return False
    return True


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "instance" / "tls"


def test_the_first_start_makes_an_authority_and_a_certificate_for_every_printed_address(folder):
    printed = network.tablet_addresses("0.0.0.0", LAPTOP, preferred="192.168.1.20")
    made = certificates.ensure(folder, laptop_names(printed), now=NOW)
    assert len(made.made) == 2 and "certificate authority" in made.made[0]
    names = alternative_names(load(made.certificate))
    assert set(printed) <= names
    assert {"localhost", "ann-laptop.local", "127.0.0.1", "::1"} <= names
    for name in [*printed, "localhost", "ann-laptop.local", "127.0.0.1"]:
        assert verifies(folder, name), name
    assert not verifies(folder, "192.168.1.99")  # an address the certificate does not hold


def test_a_server_certificate_lives_at_most_397_days_and_only_serves(folder):
    made = certificates.ensure(folder, laptop_names(), now=NOW)
    leaf = load(made.certificate)
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= dt.timedelta(days=397)
    usage = leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]
    assert not leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca


def constraints_of(folder) -> tuple[set[str], set[str]]:
    """The DNS names and the networks the folder's authority may vouch for."""
    authority = load(folder / certificates.AUTHORITY_CERTIFICATE)
    extension = authority.extensions.get_extension_for_class(x509.NameConstraints)
    assert extension.critical
    assert authority.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    permitted = extension.value.permitted_subtrees
    dns = {item.value for item in permitted if isinstance(item, x509.DNSName)}
    networks = {str(item.value) for item in permitted if isinstance(item, x509.IPAddress)}
    return dns, networks


def test_the_authority_is_constrained_to_the_machines_own_networks_and_full_names(folder):
    names = certificates.machine_names(
        ["192.168.1.20", "203.0.113.7"],
        ["scores.lan"],
        hostname="dev",
        fqdn="dev.fritz.box",
        networks=["192.168.1.0/24", "172.17.0.0/16", "2001:db8:5:6::/64", "127.0.0.0/8"],
    )
    certificates.ensure(folder, names, now=NOW)
    dns, networks = constraints_of(folder)
    # Never a one-label name (`dev` would be every `*.dev` site), nor all of `.local`.
    assert dns == {"localhost", "dev.local", "dev.fritz.box", "scores.lan"}
    assert networks == {
        "192.168.1.0/24",
        "172.17.0.0/16",
        "2001:db8:5:6::/64",
        "127.0.0.0/8",
        "::1/128",
        "203.0.113.7/32",  # an address the server offers outside every interface's network
    }
    certificate = alternative_names(load(folder / certificates.SERVER_CERTIFICATE))
    assert certificate == {
        "localhost",
        "dev.local",
        "dev.fritz.box",
        "scores.lan",
        "192.168.1.20",
        "203.0.113.7",
        "127.0.0.1",
        "::1",
    }
    assert verifies(folder, "dev.local") and verifies(folder, "192.168.1.20")


@pytest.mark.parametrize(
    "name",
    [
        "bank.example",
        "www.google.com",
        "8.8.8.8",
        "scores.lan.evil",
        "shop.dev",  # the host is called `dev`: a public top-level domain
        "dev",
        "printer.local",  # another machine's `.local` name
        "10.1.2.3",  # private, but not a network this machine is on
        "192.168.2.9",
        "100.64.0.1",
    ],
)
def test_a_stolen_authority_key_cannot_vouch_for_another_site(folder, tmp_path, name):
    names = certificates.machine_names(["192.168.1.20"], ["scores.lan"], hostname="dev", fqdn="dev")
    certificates.ensure(folder, names, now=NOW)
    key = certificates._read_key(folder / certificates.AUTHORITY_KEY)
    authority = load(folder / certificates.AUTHORITY_CERTIFICATE)
    forged = tmp_path / "forged"
    forged.mkdir()
    dns, ips = ((), (name,)) if name[0].isdigit() else ((name,), ())
    certificates._make_server(forged, key, authority, Names(dns=dns, ips=ips), NOW)
    leaf = load(forged / certificates.SERVER_CERTIFICATE)
    assert not verifies(folder, name, leaf=leaf)


def test_the_one_label_host_name_is_not_in_the_certificate_its_local_name_is():
    names = certificates.machine_names(["10.0.0.5"], hostname="app", fqdn="app")
    assert names.dns == ("localhost", "app.local")


def old_authority(folder, names: Names) -> None:
    """An authority as earlier versions made it: every private range, `.local` and the one-label
    host name in its constraints."""
    wide = x509.NameConstraints(
        permitted_subtrees=[
            *(x509.DNSName(name) for name in ("localhost", "local", "ann-laptop")),
            *(
                x509.IPAddress(ipaddress.ip_network(block))
                for block in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8")
            ),
        ],
        excluded_subtrees=None,
    )
    with mock.patch.object(certificates, "_constraints", lambda names: wide):
        certificates.ensure(folder, names, now=NOW)


def test_an_authority_of_an_earlier_version_keeps_working_and_start_says_how_to_narrow_it(
    folder,
):
    old_authority(folder, laptop_names())
    fingerprint = fingerprint_of(folder)
    made = certificates.ensure(folder, laptop_names(), now=NOW + dt.timedelta(days=1))
    assert fingerprint_of(folder) == fingerprint  # no tablet has to trust again
    assert verifies(folder, "192.168.1.20") and verifies(folder, "ann-laptop.local")
    assert len(made.advice) == 1
    assert "wider" in made.advice[0] and str(folder) in made.advice[0]
    assert certificates.ensure(folder, laptop_names(), now=NOW).advice == made.advice
    (folder / certificates.AUTHORITY_KEY).unlink()  # as the advice says: the folder removed
    remade = certificates.ensure(folder, laptop_names(), now=NOW)
    assert remade.advice == () and fingerprint_of(folder) != fingerprint


def test_both_keys_are_private_to_this_user_and_the_folder_too(folder):
    os.umask(old := os.umask(0))  # a permissive umask must not loosen the keys
    try:
        certificates.ensure(folder, laptop_names(), now=NOW)
    finally:
        os.umask(old)
    for name in (certificates.AUTHORITY_KEY, certificates.SERVER_KEY):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert b"PRIVATE KEY" not in (folder / certificates.AUTHORITY_CERTIFICATE).read_bytes()


def test_a_loosened_key_is_made_private_again_at_start(folder):
    certificates.ensure(folder, laptop_names(), now=NOW)
    (folder / certificates.AUTHORITY_KEY).chmod(0o644)
    certificates.ensure(folder, laptop_names(), now=NOW)
    assert stat.S_IMODE((folder / certificates.AUTHORITY_KEY).stat().st_mode) == 0o600


def test_a_restart_keeps_the_same_authority_and_certificate(folder):
    certificates.ensure(folder, laptop_names(), now=NOW)
    key = (folder / certificates.AUTHORITY_KEY).read_bytes()
    fingerprint = fingerprint_of(folder)
    leaf = (folder / certificates.SERVER_CERTIFICATE).read_bytes()
    again = certificates.ensure(folder, laptop_names(), now=NOW + dt.timedelta(days=100))
    assert again.made == ()
    assert (folder / certificates.AUTHORITY_KEY).read_bytes() == key
    assert fingerprint_of(folder) == fingerprint
    assert (folder / certificates.SERVER_CERTIFICATE).read_bytes() == leaf


def test_a_changed_address_renews_the_certificate_under_the_same_authority(folder):
    certificates.ensure(folder, laptop_names(["192.168.1.20"]), now=NOW)
    fingerprint = fingerprint_of(folder)
    renewed = certificates.ensure(folder, laptop_names(["192.168.1.31"]), now=NOW)
    assert renewed.made == (
        "Made a server certificate for " + str(laptop_names(["192.168.1.31"])) + ".",
    )
    assert fingerprint_of(folder) == fingerprint
    assert verifies(folder, "192.168.1.31") and not verifies(folder, "192.168.1.20")


@pytest.mark.parametrize("later", [dt.timedelta(days=397), dt.timedelta(days=370)])
def test_an_expired_or_nearly_expired_certificate_is_replaced_at_start(folder, later):
    certificates.ensure(folder, laptop_names(), now=NOW)
    at = NOW + later
    assert not verifies(folder, "localhost", at=at + dt.timedelta(days=30))
    renewed = certificates.ensure(folder, laptop_names(), now=at)
    assert renewed.made and "server certificate" in renewed.made[0]
    assert verifies(folder, "localhost", at=at + dt.timedelta(days=30))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda folder: (folder / certificates.SERVER_KEY).write_text("not a key"),
        lambda folder: (folder / certificates.SERVER_CERTIFICATE).unlink(),
        lambda folder: (folder / certificates.SERVER_CERTIFICATE).write_bytes(b"-----BEGIN"),
    ],
    ids=["spoilt key", "missing certificate", "cut-short certificate"],
)
def test_an_unusable_server_certificate_is_made_again_under_the_same_authority(folder, spoil):
    certificates.ensure(folder, laptop_names(), now=NOW)
    fingerprint = fingerprint_of(folder)
    spoil(folder)
    renewed = certificates.ensure(folder, laptop_names(), now=NOW)
    assert len(renewed.made) == 1
    assert fingerprint_of(folder) == fingerprint
    assert verifies(folder, "localhost")


def test_a_certificate_of_another_authority_is_replaced(folder, tmp_path):
    certificates.ensure(folder, laptop_names(), now=NOW)
    other = tmp_path / "other"
    certificates.ensure(other, laptop_names(), now=NOW)
    (folder / certificates.SERVER_CERTIFICATE).write_bytes(
        (other / certificates.SERVER_CERTIFICATE).read_bytes()
    )
    (folder / certificates.SERVER_KEY).write_bytes((other / certificates.SERVER_KEY).read_bytes())
    assert not verifies(folder, "localhost")
    assert certificates.ensure(folder, laptop_names(), now=NOW).made
    assert verifies(folder, "localhost")


def test_an_unreadable_authority_is_made_anew_and_says_every_tablet_trusts_again(folder):
    certificates.ensure(folder, laptop_names(), now=NOW)
    fingerprint = fingerprint_of(folder)
    (folder / certificates.AUTHORITY_KEY).write_text("")
    made = certificates.ensure(folder, laptop_names(), now=NOW)
    assert "certificate authority" in made.made[0]
    assert fingerprint_of(folder) != fingerprint
    assert verifies(folder, "localhost")


def test_the_certificate_leaves_out_what_the_authority_cannot_vouch_for(folder):
    certificates.ensure(folder, laptop_names(["192.168.1.20"]), now=NOW)
    later = laptop_names(["192.168.1.20", "198.51.100.4"], extra=["scores.lan"])
    made = certificates.ensure(folder, later, now=NOW)
    assert [line.split(":")[0] for line in made.left_out] == [
        "The certificate leaves out scores.lan",
        "The certificate leaves out 198.51.100.4",
    ]
    names = alternative_names(load(made.certificate))
    assert "198.51.100.4" not in names and "scores.lan" not in names
    assert verifies(folder, "192.168.1.20")  # the rest still works


def test_the_certificate_never_outlives_its_authority(folder):
    certificates.ensure(folder, laptop_names(), now=NOW)
    authority = load(folder / certificates.AUTHORITY_CERTIFICATE)
    near_end = authority.not_valid_after_utc - dt.timedelta(days=100)
    certificates.ensure(folder, laptop_names(), now=near_end)
    leaf = load(folder / certificates.SERVER_CERTIFICATE)
    assert leaf.not_valid_after_utc <= authority.not_valid_after_utc


def test_machine_names_skip_a_host_name_no_certificate_holds():
    names = certificates.machine_names(["10.0.0.5"], hostname="Ann_Laptop", fqdn="Ann_Laptop")
    assert names.dns == ("localhost",)
    assert names.ips == ("10.0.0.5", "127.0.0.1", "::1")


def test_machine_names_take_the_router_given_name_and_lower_case():
    names = certificates.machine_names([], hostname="Ann-Laptop", fqdn="Ann-Laptop.fritz.box")
    assert names.dns == ("localhost", "ann-laptop.local", "ann-laptop.fritz.box")


def test_an_extra_name_that_is_no_host_name_is_named_in_the_error():
    with pytest.raises(ValueError, match=r"'scores lan', 'x_y'"):
        certificates.machine_names([], ["scores.lan", "scores lan", "x_y", " "], hostname="a")


def test_nothing_to_read_before_the_authority_is_made(folder):
    assert certificates.read_authority(folder) is None


@pytest.mark.parametrize(
    ("address", "netmask", "network_"),
    [
        ("192.168.1.20", "255.255.255.0", "192.168.1.0/24"),
        ("10.1.2.3", "255.0.0.0", "10.0.0.0/8"),
        ("2001:db8:5:6::7", "ffff:ffff:ffff:ffff::", "2001:db8:5:6::/64"),
        ("127.0.0.1", "255.0.0.0", "127.0.0.0/8"),
        ("fe80::1%wlan0", "ffff:ffff:ffff:ffff::", None),  # link-local: no address offered
        ("169.254.3.4", "255.255.0.0", None),
        ("aa:bb:cc:dd:ee:ff", None, None),  # a hardware address
    ],
)
def test_an_interfaces_network_is_its_address_with_its_prefix_length(address, netmask, network_):
    assert network.interface_network(address, netmask) == network_


def test_an_extra_name_without_a_dot_is_refused():
    with pytest.raises(ValueError, match=r"with a dot .*'scores'"):
        certificates.machine_names([], ["scores"], hostname="a")
