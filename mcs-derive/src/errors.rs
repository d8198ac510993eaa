//! Collects every error before failing, so one run of the compiler reports them all.

pub struct Errors(Option<syn::Error>);

impl Errors {
    pub fn new() -> Self {
        Errors(None)
    }

    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub fn push_spanned(&mut self, tokens: impl quote::ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub fn into_result(self) -> Option<syn::Error> {
        self.0
    }
}
