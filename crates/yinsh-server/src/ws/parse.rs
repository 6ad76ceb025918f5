//! Reading a connection's messages: the rate limit, and the requests as JSON.

use tokio::time::Instant;

use crate::protocol::ClientMessage;

/// A token bucket: `burst` messages at once, refilled at `rate` a second.
pub(super) struct RateLimit {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl RateLimit {
    pub(super) fn new(rate: u32, burst: u32) -> RateLimit {
        RateLimit {
            tokens: f64::from(burst),
            rate: f64::from(rate),
            burst: f64::from(burst),
            at: Instant::now(),
        }
    }

    pub(super) fn allow(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The `id` of a message that could not be read, if it has one.
pub(super) fn id_of(text: &str) -> Option<u64> {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()?
        .get("id")?
        .as_u64()
}

/// Reads a client message; or, for `bad_message`, its `id` (when it has one) and why
/// it cannot be read.
///
/// serde takes an integer as a tag the index of a variant (`{"type":8}` would be a
/// `ping`, `"command":0` a `join`), and an array as a struct or tagged enum whose first
/// element is the tag (`"change":[0,false]` would be `log off`): the tags `type`,
/// `command` and `option` are checked to be strings, and `change` an object, before
/// serde reads the message. Other faults keep serde's own reason, with its position.
pub(super) fn parse(text: &str) -> Result<ClientMessage, (Option<u64>, String)> {
    let value = serde_json::from_str::<serde_json::Value>(text).ok();
    let id = || value.as_ref()?.get("id")?.as_u64();
    if let Some(reason) = value.as_ref().and_then(untagged) {
        return Err((id(), reason));
    }
    serde_json::from_str(text).map_err(|e| (id(), e.to_string()))
}

/// Why the tags of a message (as JSON) cannot be read, if they cannot: a `type`, a
/// `command` (of a `command` request) or an `option` (of an `option` command's
/// `change`) that is there but not a string, or a `change` that is not an object.
fn untagged(message: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    fn kind(v: &Value) -> &'static str {
        match v {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }
    let not_a_string =
        |field: &str, v: &Value| format!("`{field}` must be a string, not {}", kind(v));
    let tag = |object: &Value, field: &str| -> Result<Option<String>, String> {
        match object.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(not_a_string(field, v)),
        }
    };
    let check = || -> Result<(), String> {
        if tag(message, "type")?.as_deref() != Some("command") {
            return Ok(());
        }
        if tag(message, "command")?.as_deref() != Some("option") {
            return Ok(());
        }
        match message.get("change") {
            None => Ok(()),
            Some(change @ Value::Object(_)) => tag(change, "option").map(drop),
            Some(v) => Err(format!("`change` must be an object, not {}", kind(v))),
        }
    };
    check().err()
}
