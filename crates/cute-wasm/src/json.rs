//! The answers of [`crate::handle`] are [`serde_json::Value`]s built with [`json!`] (keys in the
//! order written) and printed compact by `serde_json`, the same writer as `cute --json`.
//! (`serde_json` leaves U+2028 and U+2029 unescaped, which `JSON.parse` reads as they are.)

pub use serde_json::{json, Map, Value};

/// An object from `(key, value)` pairs, in order.
///
/// ```
/// use cute_wasm::json::{json, object};
/// let o = object(vec![("b", json!("x\"\n")), ("a", json!([1, 2]))]);
/// assert_eq!(o.to_string(), r#"{"b":"x\"\n","a":[1,2]}"#);
/// ```
pub fn object(fields: Vec<(&str, Value)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect::<Map<String, Value>>(),
    )
}
