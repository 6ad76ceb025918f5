//! The TypeScript protocol types of the web client are the ones the server defines.

/// `client/src/protocol.ts`, from the repository root.
const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../client/src/protocol.ts");

#[test]
fn protocol_types_are_current() {
    let generated = yinsh_server::protocol::typescript();
    if std::env::var_os("UPDATE_PROTOCOL").is_some() {
        std::fs::create_dir_all(std::path::Path::new(PATH).parent().unwrap()).unwrap();
        std::fs::write(PATH, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        committed == generated,
        "client/src/protocol.ts is out of date: run \
         UPDATE_PROTOCOL=1 cargo test -p yinsh-server protocol_types"
    );
}
