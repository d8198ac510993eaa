//! Collects every error before failing, so one run of the compiler reports them all.

pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn new() -> Self {
        Errors(None)
    }

    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn push_spanned(
        &mut self,
        tokens: impl quote::ToTokens,
        message: impl std::fmt::Display,
    ) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub(crate) fn into_result(self) -> Option<syn::Error> {
        self.0
    }
}
