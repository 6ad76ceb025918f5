//! Rebuilds the binary when the web client is rebuilt: `yinsh serve` carries the files of
//! `client/dist` (a release build inside the binary; a debug build reads them from that
//! folder, which must exist when the binary is compiled). Cargo watches the whole folder,
//! so a client build after the binary's makes the next `cargo build` take it in.
fn main() {
    println!("cargo:rerun-if-changed=../../client/dist");
}
