"""`/trust` over plain HTTP: the tablet's own system's steps, the certificate's downloads (never
its key), the Check's endpoint at the secure address, and the home page's offer of the secure
address."""

from __future__ import annotations

import plistlib
import re
import shutil
import uuid
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from flask_babel import force_locale, gettext

from scorekeeper.platform.security import CONTENT_SECURITY_POLICY
from scorekeeper.tls import views
from tests.support.trust import make_authority

LAN = "http://192.168.1.20:5000"
SECURE = "https://192.168.1.20:5443"
TABLET = {"REMOTE_ADDR": "192.168.1.30"}
AGENTS = {
    "android": "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/124.0.0.0 Safari/537.36",
    "ipad": "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like"
    " Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "iphone": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "mac": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like"
    " Gecko) Version/17.4 Safari/605.1.15",
    "windows": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/124.0.0.0 Safari/537.36",
    "linux": "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
}
FIRST = {
    "android": "android",
    "ipad": "apple",
    "iphone": "apple",
    "mac": "other",
    "windows": "other",
    "linux": "other",
}
DOWNLOADS = ("scorekeeper-ca.crt", "scorekeeper-ca.pem", "scorekeeper.mobileconfig")


@pytest.fixture
def authority(app) -> x509.Certificate:
    """HTTPS served on 5443 with a certificate authority in the instance folder's tls/."""
    app.config["SERVE_HTTPS_PORT"] = 5443
    return make_authority(Path(app.instance_path) / "tls")


def trust_page(client, agent: str = AGENTS["android"], base_url: str = LAN):
    response = client.get(
        "/trust", base_url=base_url, environ_base=TABLET, headers={"User-Agent": agent}
    )
    assert response.status_code == 200
    return response


def opened(html: str) -> list[str]:
    """The systems whose steps the page shows, in order, and which of them is open."""
    return re.findall(r'<details class="trust-system" id="steps-(\w+)"( open)?>', html)


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_the_tablets_own_system_comes_first_and_open_the_others_folded(client, authority, agent):
    html = trust_page(client, AGENTS[agent]).get_data(as_text=True)
    systems = opened(html)
    assert systems[0] == (FIRST[agent], " open")
    assert sorted(name for name, _ in systems) == ["android", "apple", "other"]
    assert [shown for _, shown in systems[1:]] == ["", ""]
    assert views.system_of(AGENTS[agent]) == FIRST[agent]


def test_each_systems_steps_say_where_to_go(client, authority):
    html = trust_page(client).get_data(as_text=True)
    assert "Install a certificate → CA certificate" in html
    assert "Settings → General → About → Certificate Trust Settings" in html
    common_name = authority.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value
    assert common_name.startswith("Liverpool Scorekeeper on ann-laptop (")
    assert f"turn on full trust for “{common_name}”" in html
    assert "trusted certificate authorities" in html
    for name in DOWNLOADS:
        assert f'href="/trust/{name}"' in html
    assert "secure address works" in html  # the sentence on why


def test_the_page_shows_the_certificates_fingerprint(client, authority):
    html = trust_page(client).get_data(as_text=True)
    digest = authority.fingerprint(hashes.SHA256())
    assert ":".join(f"{byte:02X}" for byte in digest) in html


def test_the_downloads_are_the_certificate_in_each_systems_form(client, authority):
    der = client.get("/trust/scorekeeper-ca.crt")
    assert der.status_code == 200
    assert der.mimetype == "application/x-x509-ca-cert"
    assert der.headers["Content-Disposition"] == 'attachment; filename="scorekeeper-ca.crt"'
    assert x509.load_der_x509_certificate(der.data) == authority
    pem = client.get("/trust/scorekeeper-ca.pem")
    assert pem.mimetype == "application/x-pem-file"
    assert pem.headers["Content-Disposition"] == 'attachment; filename="scorekeeper-ca.pem"'
    assert x509.load_pem_x509_certificate(pem.data) == authority
    profile = client.get("/trust/scorekeeper.mobileconfig")
    assert profile.mimetype == "application/x-apple-aspen-config"
    assert "scorekeeper.mobileconfig" in profile.headers["Content-Disposition"]
    document = plistlib.loads(profile.data)
    assert document["PayloadType"] == "Configuration"
    assert document["PayloadDisplayName"] == "Liverpool Scorekeeper"
    (payload,) = document["PayloadContent"]
    assert payload["PayloadType"] == "com.apple.security.root"
    assert payload["PayloadContent"] == der.data
    uuids = {document["PayloadUUID"], payload["PayloadUUID"]}
    assert len(uuids) == 2 and all(uuid.UUID(value) for value in uuids)


def test_the_profiles_uuids_follow_the_certificate(client, app, authority):
    """The same certificate gives the same profile (installed again, it replaces itself); a new
    authority gives new UUIDs."""

    def uuids():
        document = plistlib.loads(client.get("/trust/scorekeeper.mobileconfig").data)
        return document["PayloadUUID"], document["PayloadContent"][0]["PayloadUUID"]

    first = uuids()
    assert uuids() == first
    folder = Path(app.instance_path) / "tls"
    shutil.rmtree(folder)  # the only way to a new authority
    make_authority(folder)
    assert set(uuids()).isdisjoint(first)


def test_no_answer_ever_holds_the_private_key(client, authority, app):
    assert b"PRIVATE KEY" in (Path(app.instance_path) / "tls" / "ca.key").read_bytes()
    for path in ["/trust", "/trust/check", *(f"/trust/{name}" for name in DOWNLOADS)]:
        answer = client.get(path, base_url=LAN, environ_base=TABLET)
        assert answer.status_code == 200, path
        assert b"PRIVATE KEY" not in answer.data, path
    assert client.get("/trust/ca.key").status_code == 404
    assert client.get("/trust/../tls/ca.key").status_code == 404


def test_the_tls_folder_setting_moves_where_the_authority_is_read(client, app, tmp_path):
    app.config["SERVE_HTTPS_PORT"] = 5443
    app.config["TLS_FOLDER"] = str(tmp_path / "elsewhere")
    assert client.get("/trust/scorekeeper-ca.crt").status_code == 404
    made = make_authority(tmp_path / "elsewhere")
    assert x509.load_der_x509_certificate(client.get("/trust/scorekeeper-ca.crt").data) == made


@pytest.mark.parametrize("served", ["no https", "no authority", "not a certificate"])
def test_without_a_secure_address_the_page_says_so_and_nothing_downloads(client, app, served):
    folder = Path(app.instance_path) / "tls"
    if served == "no https":
        make_authority(folder)  # made by an earlier `make run`; HTTPS is not served now
    else:
        app.config["SERVE_HTTPS_PORT"] = 5443
        if served == "not a certificate":
            folder.mkdir(parents=True)
            (folder / "ca.crt").write_text("not a certificate")
    answer = trust_page(client)
    html = answer.get_data(as_text=True)
    assert "This score book is not serving a secure address" in html
    assert "<code>make run</code>" in html
    assert "trust-check" not in html and "trust.js" not in html
    assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    for name in DOWNLOADS:
        missing = client.get(f"/trust/{name}")
        assert missing.status_code == 404
        assert missing.mimetype == "text/html"


def test_the_check_may_ask_the_secure_origin_and_nothing_else(client, authority):
    policy = trust_page(client).headers["Content-Security-Policy"]
    assert policy == f"{CONTENT_SECURITY_POLICY}; connect-src 'self' {SECURE}"
    html = trust_page(client).get_data(as_text=True)
    assert f'data-check="{SECURE}/trust/check"' in html
    assert f'href="{SECURE}/trust/check"' in html  # without a script, the Check is a link


def test_the_page_over_https_says_the_tablet_trusts_it_already(client, authority):
    answer = trust_page(client, base_url=SECURE)
    assert "This tablet trusts the score book" in answer.get_data(as_text=True)
    assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


def test_the_check_answers_any_origins_script_at_the_secure_address(client, authority):
    answer = client.get(
        "/trust/check", base_url=SECURE, headers={"Accept": "application/json", "Origin": LAN}
    )
    assert answer.status_code == 200
    assert answer.get_json() == {"ok": True}
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert answer.headers["Cache-Control"] == "no-store"
    # Asked over plain HTTP it vouches for nothing.
    assert client.get("/trust/check", base_url=LAN).get_json() == {"ok": False}


def test_the_check_opened_as_a_link_is_a_page(client, authority):
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    secure = client.get("/trust/check", base_url=SECURE, headers=browser)
    assert secure.mimetype == "text/html"
    html = secure.get_data(as_text=True)
    assert "<h1>This tablet trusts the score book</h1>" in html
    assert f'href="{SECURE}/"' in html
    plain = client.get("/trust/check", base_url=LAN, headers=browser).get_data(as_text=True)
    assert "This tablet trusts" not in plain and 'href="/trust"' in plain


# --- The home page offers the secure address ---------------------------------------------------

OFFER = "Use the secure address"


def home(client, base_url: str = LAN, remote: str = "192.168.1.30") -> str:
    answer = client.get("/", base_url=base_url, environ_base={"REMOTE_ADDR": remote})
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_the_home_page_on_the_network_offers_the_secure_address(client, app):
    app.config["SERVE_HTTPS_PORT"] = 5443
    html = home(client)
    assert OFFER in html
    assert f'href="{SECURE}/"' in html
    assert "First time on this tablet?" in html and 'href="/trust"' in html
    # After the big buttons: they stay where a tablet's thumb expects them.
    assert html.index("big-buttons") < html.index(OFFER)


def test_no_offer_without_https_over_https_or_on_this_machine(client, app):
    assert OFFER not in home(client)  # SERVE_HTTPS_PORT is None
    app.config["SERVE_HTTPS_PORT"] = 5443
    assert OFFER not in home(client, base_url=SECURE)
    assert OFFER not in home(client, base_url="http://localhost:5000", remote="127.0.0.1")


# --- The offline page tries again by itself ----------------------------------------------------


def test_the_offline_page_loads_its_retry_and_the_worker_keeps_it(client):
    html = client.get("/offline").get_data(as_text=True)
    script = re.search(r'<script src="(/static/offline\.js\?v=\w+)"([^>]*)>', html)
    assert script, "the offline page loads static/offline.js"
    assert 'data-health="/healthz"' in script.group(2)
    assert 'data-seconds="5"' in script.group(2)
    assert 'id="retry"' in html and 'role="status"' in html
    assert "asleep" in html and "make run" in html  # more causes than the Wi-Fi
    worker = client.get("/sw.js").get_data(as_text=True)
    assert f'"{script.group(1)}"' in worker


def test_behind_a_proxys_https_the_page_does_not_say_there_is_no_secure_address(client):
    """With TRUSTED_PROXIES the proxy serves HTTPS and this score book makes no authority: a
    page that came over HTTPS was trusted all the same."""
    html = trust_page(client, base_url="https://scores.example.org").get_data(as_text=True)
    assert "This tablet trusts the score book" in html
    assert "not serving a secure address" not in html


# --- In the tablet's language ----------------------------------------------------------------


def test_the_trust_steps_speak_the_tablets_language(client, app, authority):
    response = client.get(
        "/trust",
        base_url=LAN,
        environ_base=TABLET,
        headers={"User-Agent": AGENTS["android"], "Accept-Language": "fi"},
    )
    html = response.get_data(as_text=True)
    with app.test_request_context(), force_locale("fi"):
        expected = [
            gettext(text)
            for text in (
                "Trust this score book",
                "1. Trust the certificate",
                "Tap Install a certificate → CA certificate, then Install anyway.",
                "this tablet",
                "2. Check",
            )
        ]
    assert '<html lang="fi"' in html
    for text in expected:
        assert text in html
    assert "1. Luota varmenteeseen" in html and "Napauta Asenna varmenne" in html  # shipped fi


def test_the_profile_describes_itself_in_the_tablets_language(client, app, authority):
    answer = client.get(
        "/trust/scorekeeper.mobileconfig", base_url=LAN, headers={"Accept-Language": "fi"}
    )
    profile = plistlib.loads(answer.get_data())
    with app.test_request_context(), force_locale("fi"):
        expected = gettext(
            "Lets this tablet open the score book's secure address on the home network."
        )
    assert profile["PayloadDescription"] == expected
    english = plistlib.loads(client.get("/trust/scorekeeper.mobileconfig").get_data())
    assert english["PayloadDescription"] == (
        "Lets this tablet open the score book's secure address on the home network."
    )
    assert english["PayloadUUID"] == profile["PayloadUUID"]  # one profile, whatever its words
