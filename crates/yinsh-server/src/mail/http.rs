//! Mail over HTTP: an account's address and what is mailed to it (`/api/account/mail`),
//! asking for a password reset (`/api/account/password/forgot`), and the pages the
//! mails' links open (`/mail/verify/{token}`, `/mail/unsubscribe/{token}` with its
//! one-click `POST` of RFC 8058, `/mail/reset/{token}`).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;

use super::compose::escape;
use super::protocol::{Forgot, MailSettings, MailView, NewAddress};
use super::store::Purpose;
use crate::account::http::{address, blocking, end_others, read_body, registered};
use crate::account::session::hash_token;
use crate::account::store::Player;
use crate::http::app::{App, Peer, request_lang};
use crate::http::error::ApiError;
use crate::i18n::Lang;

/// The mail routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route(
            "/api/account/mail",
            get(show).post(set_address).delete(remove),
        )
        .route("/api/account/mail/settings", post(settings))
        .route("/api/account/password/forgot", post(forgot))
        .route("/mail/verify/{token}", get(verify))
        .route(
            "/mail/unsubscribe/{token}",
            get(unsubscribe_page).post(unsubscribe),
        )
        .route("/mail/reset/{token}", get(reset_page).post(reset))
}

fn mail_off() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "this server sends no mail (it was started without --smtp-url)",
    )
}

/// An address as given, checked: one mailbox, no name, at most 254 characters.
fn checked_address(address: &str) -> Result<String, ApiError> {
    let address = address.trim();
    if address.len() > 254 || address.contains(['<', '>', ',', ' ']) {
        return Err(ApiError::bad_request("that is not an email address"));
    }
    address
        .parse::<lettre::Address>()
        .map_err(|_| ApiError::bad_request("that is not an email address"))?;
    Ok(address.to_owned())
}

async fn view(app: &App, player: &Player) -> Result<MailView, ApiError> {
    let address = app.ctx.stores.mail.mail_address(player.id).await?;
    Ok(match address {
        Some(a) => MailView {
            enabled: app.ctx.mail.enabled(),
            address: Some(a.address),
            verified: a.verified,
            kinds: a.kinds,
            digest: a.digest,
        },
        None => MailView {
            enabled: app.ctx.mail.enabled(),
            address: None,
            verified: false,
            kinds: Vec::new(),
            digest: false,
        },
    })
}

async fn show(State(app): State<App>, headers: HeaderMap) -> Result<Json<MailView>, ApiError> {
    let (player, _) = registered(&app, &headers).await?;
    Ok(Json(view(&app, &player).await?))
}

/// `POST /api/account/mail {"address"}`: the account's address is this one, and a link
/// that verifies it is mailed (not when it is the verified one already). At most
/// [`super::VERIFY_PER_HOUR`] such mails an hour (429).
async fn set_address(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Json<NewAddress>, JsonRejection>,
) -> Result<Json<MailView>, ApiError> {
    let new = read_body(&headers, body)?;
    let (player, _) = registered(&app, &headers).await?;
    if !app.ctx.mail.enabled() {
        return Err(mail_off());
    }
    let address = checked_address(&new.address)?;
    let hour_ago = crate::now_ms() - 3_600_000;
    let sent = app
        .ctx
        .stores
        .mail
        .mail_tokens_since(Some(player.id), "", Purpose::Verify, hour_ago)
        .await?;
    if sent >= super::VERIFY_PER_HOUR {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many verification mails in the last hour; try again later",
        )
        .retry_after(600));
    }
    if let Some(done) = app
        .ctx
        .mail
        .set_address(player.id, &address, request_lang(&headers))
        .await
    {
        done?;
    }
    Ok(Json(view(&app, &player).await?))
}

/// `DELETE /api/account/mail`: no address, no mail (204).
async fn remove(State(app): State<App>, headers: HeaderMap) -> Result<StatusCode, ApiError> {
    if !crate::http::app::same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    let (player, _) = registered(&app, &headers).await?;
    app.ctx.stores.mail.remove_mail_address(player.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/mail/settings {"kinds": […], "digest": false}`: what is mailed
/// (404 without an address); the mail's language is the request's.
async fn settings(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Json<MailSettings>, JsonRejection>,
) -> Result<Json<MailView>, ApiError> {
    let new = read_body(&headers, body)?;
    let (player, _) = registered(&app, &headers).await?;
    let mut kinds = new.kinds;
    kinds.sort();
    kinds.dedup();
    let had = app
        .ctx
        .stores
        .mail
        .set_mail_settings(player.id, &kinds, new.digest, request_lang(&headers).code())
        .await?;
    if !had {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "the account has no address",
        ));
    }
    Ok(Json(view(&app, &player).await?))
}

/// `POST /api/account/password/forgot {"address"}`: if an account has this verified
/// address, a link that sets a new password is mailed to it (it works for an hour,
/// once). The answer is the same whether or not one has; at most
/// [`super::RESETS_PER_HOUR`] mails an hour go to one address, and a client may ask
/// [`super::FORGOT_PER_HOUR`] times an hour (429).
async fn forgot(
    State(app): State<App>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Result<Json<Forgot>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let asked = read_body(&headers, body)?;
    if !app.ctx.mail.enabled() {
        return Err(mail_off());
    }
    let client = address(peer, &headers, &app.config.trusted_proxies);
    if !app.ctx.mail.allow_forgot(&client) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many password resets asked for; try again later",
        )
        .retry_after(600));
    }
    let answer = Json(serde_json::json!({
        "ok": true,
        "text": "If an account has this verified address, a link to reset its password is on its way.",
    }));
    let Ok(address) = checked_address(&asked.address) else {
        return Ok(answer);
    };
    let store = &app.ctx.stores.mail;
    let Some(owner) = store.verified_owner(&address).await? else {
        return Ok(answer);
    };
    let hour_ago = crate::now_ms() - 3_600_000;
    let sent = store
        .mail_tokens_since(None, &owner.address, Purpose::Reset, hour_ago)
        .await?;
    if sent < super::RESETS_PER_HOUR {
        let lang = Lang::from_code(&owner.lang).unwrap_or_default();
        if let Some(done) = app
            .ctx
            .mail
            .send_reset(owner.player, &owner.name, &owner.address, lang)
            .await
        {
            done?;
        }
    }
    Ok(answer)
}

// ---- The pages the links open ----

/// The words of the link pages.
struct PageWords {
    verified: &'static str,
    not_found: &'static str,
    unsubscribe_ask: &'static str,
    unsubscribe_button: &'static str,
    unsubscribed: &'static str,
    reset_ask: &'static str,
    reset_button: &'static str,
    reset_done: &'static str,
    to_site: &'static str,
}

fn page_words(lang: Lang) -> &'static PageWords {
    match lang {
        Lang::En => &PageWords {
            verified: "Your address {address} is verified.",
            not_found: "This link does not work: it is wrong, it expired, or it was used already.",
            unsubscribe_ask: "Stop these mails?",
            unsubscribe_button: "Stop them",
            unsubscribed: "Done: these mails will not come any more. Choose what is mailed on your account page.",
            reset_ask: "Choose a new password (8 characters or more).",
            reset_button: "Set the password",
            reset_done: "Your password is set. Every session of the account was signed out: sign in with the new password.",
            to_site: "To YINSH",
        },
        Lang::Nl => &PageWords {
            verified: "Je adres {address} is bevestigd.",
            not_found: "Deze link werkt niet: hij is onjuist, verlopen of al gebruikt.",
            unsubscribe_ask: "Deze mails stoppen?",
            unsubscribe_button: "Stoppen",
            unsubscribed: "Klaar: deze mails komen niet meer. Kies op je accountpagina wat er gemaild wordt.",
            reset_ask: "Kies een nieuw wachtwoord (8 tekens of meer).",
            reset_button: "Wachtwoord instellen",
            reset_done: "Je wachtwoord is ingesteld. Elke sessie van het account is afgemeld: meld je aan met het nieuwe wachtwoord.",
            to_site: "Naar YINSH",
        },
        Lang::Pl => &PageWords {
            verified: "Twój adres {address} jest potwierdzony.",
            not_found: "Ten link nie działa: jest błędny, wygasł albo został już użyty.",
            unsubscribe_ask: "Wyłączyć te wiadomości?",
            unsubscribe_button: "Wyłącz",
            unsubscribed: "Gotowe: te wiadomości nie będą już przychodzić. Wybierz, co wysyłać, na stronie konta.",
            reset_ask: "Wybierz nowe hasło (co najmniej 8 znaków).",
            reset_button: "Ustaw hasło",
            reset_done: "Hasło jest ustawione. Wszystkie sesje konta zostały wylogowane: zaloguj się nowym hasłem.",
            to_site: "Do YINSH",
        },
        Lang::De => &PageWords {
            verified: "Deine Adresse {address} ist bestätigt.",
            not_found: "Dieser Link funktioniert nicht: Er ist falsch, abgelaufen oder wurde schon benutzt.",
            unsubscribe_ask: "Diese Mails abbestellen?",
            unsubscribe_button: "Abbestellen",
            unsubscribed: "Erledigt: Diese Mails kommen nicht mehr. Auf deiner Kontoseite wählst du, was gemailt wird.",
            reset_ask: "Wähle ein neues Passwort (8 Zeichen oder mehr).",
            reset_button: "Passwort setzen",
            reset_done: "Dein Passwort ist gesetzt. Alle Sitzungen des Kontos wurden abgemeldet: Melde dich mit dem neuen Passwort an.",
            to_site: "Zu YINSH",
        },
    }
}

/// A small page of the site: `body` (HTML) and a link to the lobby.
fn page(status: StatusCode, lang: Lang, body: String) -> Response {
    let w = page_words(lang);
    let html = format!(
        "<!DOCTYPE html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>YINSH</title><style>body{{font-family:sans-serif;max-width:36rem;\
         margin:3rem auto;padding:0 1rem;line-height:1.5}}input,button{{font:inherit;\
         padding:.4em .6em}}</style></head><body><h1>YINSH</h1>{body}\
         <p><a href=\"/\">{}</a></p></body></html>",
        lang.code(),
        escape(w.to_site)
    );
    (status, Html(html)).into_response()
}

fn not_found_page(lang: Lang) -> Response {
    page(
        StatusCode::NOT_FOUND,
        lang,
        format!(
            "<p data-testid=\"mail-link-gone\">{}</p>",
            escape(page_words(lang).not_found)
        ),
    )
}

/// A token as a link carries it: 64 hex digits (anything else is no token).
fn token_hash(token: &str) -> Option<String> {
    (token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| hash_token(&token.to_ascii_lowercase()))
}

/// `GET /mail/verify/{token}`: the address the link was sent to is verified (if it is
/// still the account's); 404 for a link that is wrong, expired or for an old address.
async fn verify(
    State(app): State<App>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let lang = request_lang(&headers);
    let Some(hash) = token_hash(&token) else {
        return Ok(not_found_page(lang));
    };
    let verified = app
        .ctx
        .stores
        .mail
        .verify_mail(&hash, crate::now_ms(), &super::DEFAULT_KINDS)
        .await?;
    Ok(match verified {
        Some(address) => page(
            StatusCode::OK,
            lang,
            format!(
                "<p data-testid=\"mail-verified\">{}</p>",
                escape(&page_words(lang).verified.replace("{address}", &address))
            ),
        ),
        None => not_found_page(lang),
    })
}

/// `GET /mail/unsubscribe/{token}`: asks (a link opened by a mail program's preview
/// must not unsubscribe anyone); the button posts.
async fn unsubscribe_page(
    State(app): State<App>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let lang = request_lang(&headers);
    let Some(hash) = token_hash(&token) else {
        return Ok(not_found_page(lang));
    };
    let store = &app.ctx.stores.mail;
    if store
        .mail_token(&hash, Purpose::Unsubscribe, crate::now_ms())
        .await?
        .is_none()
    {
        return Ok(not_found_page(lang));
    }
    let w = page_words(lang);
    Ok(page(
        StatusCode::OK,
        lang,
        format!(
            "<form method=\"post\"><p>{}</p><button type=\"submit\">{}</button></form>",
            escape(w.unsubscribe_ask),
            escape(w.unsubscribe_button)
        ),
    ))
}

/// `POST /mail/unsubscribe/{token}` (the page's button, or a mail program's one-click
/// `List-Unsubscribe=One-Click`, RFC 8058): the mails the link is about stop. No
/// session or origin is asked for: the token is the proof.
async fn unsubscribe(
    State(app): State<App>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let lang = request_lang(&headers);
    let Some(hash) = token_hash(&token) else {
        return Ok(not_found_page(lang));
    };
    if !app.ctx.stores.mail.unsubscribe(&hash).await? {
        return Ok(not_found_page(lang));
    }
    Ok(page(
        StatusCode::OK,
        lang,
        format!(
            "<p data-testid=\"mail-unsubscribed\">{}</p>",
            escape(page_words(lang).unsubscribed)
        ),
    ))
}

/// `GET /mail/reset/{token}`: the form for a new password; 404 for a link that is
/// wrong, expired or used.
async fn reset_page(
    State(app): State<App>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, ApiError> {
    let lang = request_lang(&headers);
    let Some(hash) = token_hash(&token) else {
        return Ok(not_found_page(lang));
    };
    if app
        .ctx
        .stores
        .mail
        .mail_token(&hash, Purpose::Reset, crate::now_ms())
        .await?
        .is_none()
    {
        return Ok(not_found_page(lang));
    }
    Ok(reset_form(StatusCode::OK, lang, None))
}

fn reset_form(status: StatusCode, lang: Lang, problem: Option<&str>) -> Response {
    let w = page_words(lang);
    let problem = problem.map_or_else(String::new, |p| {
        format!("<p role=\"alert\" style=\"color:#a40\">{}</p>", escape(p))
    });
    page(
        status,
        lang,
        format!(
            "<form method=\"post\"><p>{}</p>{problem}<p><input type=\"password\" name=\"password\" \
             autocomplete=\"new-password\" minlength=\"8\" required aria-label=\"{}\"></p>\
             <button type=\"submit\">{}</button></form>",
            escape(w.reset_ask),
            escape(w.reset_button),
            escape(w.reset_button)
        ),
    )
}

/// The reset form's field.
#[derive(Debug, Deserialize)]
struct NewPassword {
    password: String,
}

/// `POST /mail/reset/{token}` (`password=…`): the account's password is the new one,
/// every session of it ends, and the link is used; 404 for a link that is wrong,
/// expired or used; 400 (the form again) for a password the rules refuse.
async fn reset(
    State(app): State<App>,
    headers: HeaderMap,
    Path(token): Path<String>,
    Form(form): Form<NewPassword>,
) -> Result<Response, ApiError> {
    let lang = request_lang(&headers);
    if !crate::http::app::same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    let Some(hash) = token_hash(&token) else {
        return Ok(not_found_page(lang));
    };
    if let Err(problem) = crate::account::check_password(&form.password) {
        return Ok(reset_form(StatusCode::BAD_REQUEST, lang, Some(problem)));
    }
    let password = form.password;
    let hashed = blocking(move || crate::account::hash_password(&password)).await;
    let Some(player) = app
        .ctx
        .stores
        .mail
        .reset_password(&hash, crate::now_ms(), &hashed)
        .await?
    else {
        return Ok(not_found_page(lang));
    };
    let player = Player {
        id: player,
        name: String::new(),
        bot: false,
    };
    end_others(&app, &player, "").await?;
    Ok(page(
        StatusCode::OK,
        lang,
        format!(
            "<p data-testid=\"mail-reset-done\">{}</p>",
            escape(page_words(lang).reset_done)
        ),
    ))
}
