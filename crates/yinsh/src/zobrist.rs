//! Zobrist keys, generated at compile time from a fixed seed.

const fn splitmix(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (next, z ^ (z >> 31))
}

/// Keys: `[ring white, ring black, marker white, marker black][grid index]`, then the
/// removed-ring counts, then the side and stage.
pub(crate) struct Keys {
    pub(crate) pieces: [[u64; 121]; 4],
    pub(crate) removed: [[u64; 6]; 2],
    pub(crate) state: [[u64; 8]; 2],
}

const fn build() -> Keys {
    let mut keys = Keys {
        pieces: [[0; 121]; 4],
        removed: [[0; 6]; 2],
        state: [[0; 8]; 2],
    };
    let mut s = 0x5949_4e53_4800_0001u64;
    let mut k = 0;
    while k < 4 {
        let mut i = 0;
        while i < 121 {
            let (n, v) = splitmix(s);
            s = n;
            keys.pieces[k][i] = v;
            i += 1;
        }
        k += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut i = 1; // zero removed rings contributes nothing
        while i < 6 {
            let (n, v) = splitmix(s);
            s = n;
            keys.removed[c][i] = v;
            i += 1;
        }
        let mut j = 0;
        while j < 8 {
            let (n, v) = splitmix(s);
            s = n;
            keys.state[c][j] = v;
            j += 1;
        }
        c += 1;
    }
    keys
}

pub(crate) static KEYS: Keys = build();

/// XOR of the keys of `set` in table `table`.
#[inline]
pub(crate) fn of_set(table: usize, set: crate::Bitboard) -> u64 {
    let mut h = 0;
    for p in set {
        h ^= KEYS.pieces[table][p.index()];
    }
    h
}
