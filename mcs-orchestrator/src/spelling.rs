//! British spellings read as American ones, so that a task that says `favourites`,
//! `organise` or `cancelled` meets an API that says `favorites`, `organize` and `canceled`
//! (and the other way round: both sides of a search are read through [`american`]).
//!
//! Rules for the regular families (`-our`, `-ise`, `-yse`, `-logue`, a doubled `l` before an
//! ending) and a short table for the rest. A word that only looks British (`advise`,
//! `enterprise`, `four`, `called`) is left as it is; a miss costs little, since documents
//! and tasks are read alike.

/// Stems whose British `-our` is American `-or` (`favour`, `favourite`, `colours`).
const OUR_STEMS: &[&str] = &[
    "armour",
    "behaviour",
    "clamour",
    "colour",
    "endeavour",
    "favour",
    "fervour",
    "flavour",
    "harbour",
    "honour",
    "humour",
    "labour",
    "neighbour",
    "odour",
    "parlour",
    "rigour",
    "rumour",
    "saviour",
    "savour",
    "splendour",
    "tumour",
    "valour",
    "vapour",
    "vigour",
];

/// Verbs that end in `-ise` in American English too, with what is built on them.
const ISE_WORDS: &[&str] = &[
    "advertis",
    "advis",
    "apprais",
    "appris",
    "chastis",
    "circumcis",
    "compris",
    "compromis",
    "concis",
    "cruis",
    "demis",
    "despis",
    "devis",
    "disguis",
    "enterpris",
    "excis",
    "exercis",
    "expertis",
    "franchis",
    "improvis",
    "incis",
    "merchandis",
    "mortis",
    "otherwis",
    "porpois",
    "paradis",
    "prais",
    "precis",
    "premis",
    "promis",
    "rais",
    "repris",
    "revis",
    "sunris",
    "supervis",
    "surpris",
    "televis",
    "tortois",
    "treatis",
    "turquois",
    "upris",
];

/// Roots that double their `l` before an ending in British English only (`cancelled`,
/// `labelling`, `modeller`).
const DOUBLED_L: &[&str] = &[
    "cancel", "channel", "counsel", "dial", "equal", "fuel", "jewel", "label", "level", "marshal",
    "marvel", "model", "quarrel", "signal", "total", "travel", "tunnel",
];

/// The rest, whole words: British, then American.
const WORDS: &[(&str, &str)] = &[
    ("aeroplane", "airplane"),
    ("ageing", "aging"),
    ("aluminium", "aluminum"),
    ("centre", "center"),
    ("centres", "centers"),
    ("cheque", "check"),
    ("cheques", "checks"),
    ("defence", "defense"),
    ("enrol", "enroll"),
    ("enrolment", "enrollment"),
    ("enrols", "enrolls"),
    ("fibre", "fiber"),
    ("fulfil", "fulfill"),
    ("fulfilment", "fulfillment"),
    ("grey", "gray"),
    ("instalment", "installment"),
    ("judgement", "judgment"),
    ("licence", "license"),
    ("licences", "licenses"),
    ("litre", "liter"),
    ("litres", "liters"),
    ("metre", "meter"),
    ("metres", "meters"),
    ("offence", "offense"),
    ("programme", "program"),
    ("programmes", "programs"),
    ("theatre", "theater"),
    ("theatres", "theaters"),
    ("tyre", "tire"),
    ("tyres", "tires"),
];

/// Endings the `-ise` family takes, longest first, with their American forms.
const ISE_ENDINGS: &[(&str, &str)] = &[
    ("isations", "izations"),
    ("isation", "ization"),
    ("isers", "izers"),
    ("ising", "izing"),
    ("ised", "ized"),
    ("ises", "izes"),
    ("iser", "izer"),
    ("ise", "ize"),
];

/// The same for the `-yse` family (`analyse`, `paralysed`).
const YSE_ENDINGS: &[(&str, &str)] = &[
    ("ysing", "yzing"),
    ("ysed", "yzed"),
    ("yses", "yzes"),
    ("yser", "yzer"),
    ("yse", "yze"),
];

/// Endings a doubled `l` comes before.
const L_ENDINGS: &[&str] = &["ling", "led", "ler", "lers"];

/// The American spelling of `word` (lower case), or `None` when it has no other.
pub(crate) fn american(word: &str) -> Option<String> {
    if word.len() < 4 || !word.is_ascii() {
        return None;
    }
    if let Some((_, us)) = WORDS.iter().find(|(uk, _)| *uk == word) {
        return Some((*us).to_owned());
    }
    if let Some(stem) = OUR_STEMS.iter().find(|stem| word.starts_with(**stem)) {
        let rest = &word[stem.len()..];
        return Some(format!("{}or{rest}", &stem[..stem.len() - 3]));
    }
    for (ending, american) in YSE_ENDINGS {
        if let Some(root) = word.strip_suffix(ending) {
            return (root.len() >= 4).then(|| format!("{root}{american}"));
        }
    }
    for (ending, american) in ISE_ENDINGS {
        let Some(root) = word.strip_suffix(ending) else {
            continue;
        };
        // `advertising`: the root with its `is`, against the words that keep it.
        let built = &word[..root.len() + 2];
        if root.len() < 4 || ISE_WORDS.iter().any(|w| built.ends_with(w)) {
            return None;
        }
        return Some(format!("{root}{american}"));
    }
    if let Some(root) = word
        .strip_suffix("logue")
        .or_else(|| word.strip_suffix("logues"))
    {
        let plural = if word.ends_with('s') { "s" } else { "" };
        return (!root.is_empty()).then(|| format!("{root}log{plural}"));
    }
    for ending in L_ENDINGS {
        if let Some(root) = word.strip_suffix(ending)
            && DOUBLED_L.contains(&root)
        {
            return Some(format!("{root}{}", &ending[1..]));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::american;

    #[test]
    fn british_spellings_become_american() {
        for (uk, us) in [
            ("favourites", "favorites"),
            ("favourite", "favorite"),
            ("colour", "color"),
            ("behaviours", "behaviors"),
            ("organise", "organize"),
            ("organisation", "organization"),
            ("organisations", "organizations"),
            ("authorised", "authorized"),
            ("customising", "customizing"),
            ("analyse", "analyze"),
            ("analysed", "analyzed"),
            ("catalogue", "catalog"),
            ("dialogues", "dialogs"),
            ("cancelled", "canceled"),
            ("labelling", "labeling"),
            ("modellers", "modelers"),
            ("licence", "license"),
            ("centre", "center"),
            ("grey", "gray"),
        ] {
            assert_eq!(american(uk).as_deref(), Some(us), "{uk}");
        }
    }

    #[test]
    fn words_that_only_look_british_stay() {
        for word in [
            "advise",
            "advertising",
            "enterprise",
            "exercises",
            "promised",
            "raise",
            "otherwise",
            "supervisor",
            "four",
            "hour",
            "your",
            "resources",
            "called",
            "installed",
            "controller",
            "filled",
            "league",
            "analysis",
            "wise",
            "rise",
            "noise",
        ] {
            assert_eq!(american(word), None, "{word}");
        }
    }
}
