//! The MCS data model: what drivers describe and what they answer.
//!
//! Field names follow the Model Context Standard, so JSON written by other SDKs
//! deserializes here and JSON written here reads there.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::definitions::{Definitions, MODEL_BUDGET, for_model, refers, self_contained};

/// How a driver reaches its backend, e.g. `rest` / `http` / `OpenAPI`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    /// What the driver can do, e.g. `rest`, `filesystem`, `can`.
    pub capability: String,
    /// The backend it talks through, e.g. `http`, `localfs`.
    pub adapter: String,
    /// The format of the specification its tools come from, e.g. `OpenAPI`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec_format: Option<String>,
}

impl Binding {
    /// The capability of a driver written with `#[mcs::tool_driver]` that does not name
    /// one: its tools are the user's own code.
    pub const ANNOTATED_CAPABILITY: &'static str = "custom";
    /// The adapter of a driver written with `#[mcs::tool_driver]` that does not name one:
    /// its tools run in-process, as Rust calls.
    pub const ANNOTATED_ADAPTER: &'static str = "native";

    /// A binding without a specification format.
    pub fn new(capability: impl Into<String>, adapter: impl Into<String>) -> Self {
        Binding {
            capability: capability.into(),
            adapter: adapter.into(),
            spec_format: None,
        }
    }

    /// Sets the specification format.
    #[must_use]
    pub fn with_spec_format(mut self, spec_format: impl Into<String>) -> Self {
        self.spec_format = Some(spec_format.into());
        self
    }
}

/// Metadata that identifies a driver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriverMeta {
    /// A stable identifier, unique among the drivers a client holds.
    pub id: String,
    /// A human-readable name.
    pub name: String,
    /// The driver's version.
    pub version: String,
    /// How the driver reaches its backends.
    #[serde(default)]
    pub bindings: Vec<Binding>,
    /// Models the driver's prompts are tuned for; `None` means any model.
    ///
    /// Older documents call this field `supported_llms`; both names are read.
    #[serde(
        default,
        alias = "supported_llms",
        skip_serializing_if = "Option::is_none"
    )]
    pub target_llms: Option<Vec<String>>,
    /// Optional capabilities the driver implements beyond the mandatory ones.
    #[serde(default)]
    pub capabilities: Vec<String>,
}

impl DriverMeta {
    /// Metadata with no bindings, no model restriction and no extra capabilities.
    pub fn new(id: impl Into<String>, name: impl Into<String>, version: impl Into<String>) -> Self {
        DriverMeta {
            id: id.into(),
            name: name.into(),
            version: version.into(),
            bindings: Vec::new(),
            target_llms: None,
            capabilities: Vec::new(),
        }
    }

    /// Adds a binding.
    #[must_use]
    pub fn with_binding(mut self, binding: Binding) -> Self {
        self.bindings.push(binding);
        self
    }
}

/// One parameter of a [`Tool`].
///
/// Its schema may refer to [`Definitions`] shared with other parameters (`{"$ref":
/// "#/$defs/NAME"}`), which is how a large API keeps one copy of each schema:
/// [`resolved_schema`](Self::resolved_schema) hands it out self-contained, and that is what
/// it serializes as.
#[derive(Clone, Debug, Deserialize)]
pub struct ToolParameter {
    /// The argument's key in the call's `arguments` object.
    pub name: String,
    /// What the argument means, for the model.
    #[serde(default)]
    pub description: String,
    /// Whether a call must supply the argument.
    #[serde(default)]
    pub required: bool,
    /// A JSON Schema of the value; `None` means a string. Self-contained, or referring into
    /// [`definitions`](Self::definitions).
    #[serde(default)]
    pub schema: Option<Value>,
    /// The shared schemas `schema` refers to, if any.
    #[serde(skip)]
    pub definitions: Option<Definitions>,
}

impl ToolParameter {
    /// A required parameter without a schema (the standard reads that as a string).
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        ToolParameter {
            name: name.into(),
            description: description.into(),
            required: true,
            schema: None,
            definitions: None,
        }
    }

    /// Sets whether the parameter is required.
    #[must_use]
    pub fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// Sets the JSON Schema of the value.
    #[must_use]
    pub fn with_schema(mut self, schema: Value) -> Self {
        self.schema = Some(schema);
        self
    }

    /// Sets the shared schemas the schema's `#/$defs/NAME` references resolve in.
    #[must_use]
    pub fn with_definitions(mut self, definitions: Definitions) -> Self {
        self.definitions = Some(definitions);
        self
    }

    /// The schema, self-contained: borrowed when it refers to no shared definitions,
    /// otherwise assembled with what it uses inlined or carried in its own `$defs`.
    /// `None` when the parameter has no schema (a string).
    pub fn resolved_schema(&self) -> Option<Cow<'_, Value>> {
        let schema = self.schema.as_ref()?;
        Some(match &self.definitions {
            Some(shared) if !shared.is_empty() => Cow::Owned(self_contained(schema, shared)),
            _ => Cow::Borrowed(schema),
        })
    }

    /// The parameter's schema as a model should see it: the declared schema (a string when
    /// there is none) with the parameter's description in front of the type's own.
    /// Self-contained; one that refers to shared definitions is assembled within about
    /// 5,000 tokens, deep parts summarised when the whole would not fit (validation still
    /// checks them: see [`resolved_schema`](Self::resolved_schema)).
    pub fn property_schema(&self) -> Value {
        self.property_schema_within(MODEL_BUDGET)
    }

    fn property_schema_within(&self, budget: usize) -> Value {
        let mut schema = match (&self.schema, &self.definitions) {
            (Some(schema), Some(shared)) if !shared.is_empty() => for_model(schema, shared, budget),
            (Some(schema), _) => schema.clone(),
            (None, _) => json!({ "type": "string" }),
        };
        // `true` accepts anything, as `{}` does, and `false` nothing, as `{"not": {}}` does:
        // only an object can carry a description, and MCP's `inputSchema` takes only
        // objects as property schemas (the TypeScript SDK refuses a whole listing for one
        // `false`, as a document's `properties: {additionalProperties: false}` gives).
        if schema == Value::Bool(true) {
            schema = json!({});
        } else if schema == Value::Bool(false) {
            schema = json!({"not": {}});
        }
        merge_description(&mut schema, &self.description);
        schema
    }
}

// A parameter is written out self-contained: whoever reads it back has no shared
// definitions to resolve references in.
impl Serialize for ToolParameter {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let schema = self.resolved_schema();
        let mut out = serializer.serialize_struct("ToolParameter", 4)?;
        out.serialize_field("name", &self.name)?;
        out.serialize_field("description", &self.description)?;
        out.serialize_field("required", &self.required)?;
        match &schema {
            Some(schema) => out.serialize_field("schema", schema)?,
            None => out.skip_field("schema")?,
        }
        out.end()
    }
}

// Equal when they describe the same argument, whether their schemas share definitions or
// carry them: a parameter read back from its serialized form equals the original.
impl PartialEq for ToolParameter {
    fn eq(&self, other: &Self) -> bool {
        if self.name != other.name
            || self.description != other.description
            || self.required != other.required
        {
            return false;
        }
        match (&self.definitions, &other.definitions) {
            (None, None) => self.schema == other.schema,
            (Some(a), Some(b)) if a.ptr_eq(b) => self.schema == other.schema,
            _ => self.resolved_schema() == other.resolved_schema(),
        }
    }
}

// How a model sees parameters (the parameter's description before its type's, the arguments
// as one object) is what the data model means by a parameter, so it is built here and
// `schema` re-exports it: the data model depends on nothing else in the crate.

/// Puts `description` in front of the schema's own description (they say different things:
/// what this argument is for, and what the type is).
pub(crate) fn merge_description(schema: &mut Value, description: &str) {
    let description = description.trim();
    if description.is_empty() {
        return;
    }
    let Value::Object(object) = schema else {
        return;
    };
    let merged = match object.get("description").and_then(Value::as_str) {
        Some(own) if !own.trim().is_empty() && own.trim() != description => {
            format!("{description}\n\n{}", own.trim())
        }
        _ => description.to_owned(),
    };
    object.insert("description".to_owned(), Value::String(merged));
}

/// The schema of an arguments object with these parameters.
pub(crate) fn object_schema(parameters: &[ToolParameter]) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    let mut definitions = Map::new();
    // Parameters that refer to shared definitions share the budget of what a model reads:
    // each is assembled whole when together they fit; otherwise those that fit in an even
    // share stay whole and the rest split what they leave.
    let shares = |p: &ToolParameter| {
        p.definitions.as_ref().is_some_and(|d| !d.is_empty())
            && p.schema.as_ref().is_some_and(refers)
    };
    let mut schemas: Vec<Value> = parameters
        .iter()
        .map(|p| p.property_schema_within(MODEL_BUDGET))
        .collect();
    let sharing: Vec<usize> = (0..parameters.len())
        .filter(|&i| shares(&parameters[i]))
        .collect();
    let mut large: Vec<(usize, usize)> = sharing
        .iter()
        .map(|&i| (i, schemas[i].to_string().len()))
        .collect();
    let mut left = MODEL_BUDGET;
    if large.iter().map(|(_, size)| size).sum::<usize>() > left {
        loop {
            let share = left / large.len().max(1);
            let before = large.len();
            large.retain(|&(_, size)| {
                let keep = size > share;
                if !keep {
                    left -= size;
                }
                keep
            });
            if large.len() == before || large.is_empty() {
                break;
            }
        }
        let budget = (left / large.len().max(1)).max(MODEL_BUDGET / 24);
        for (i, _) in large {
            schemas[i] = parameters[i].property_schema_within(budget);
        }
    }
    for (parameter, mut schema) in parameters.iter().zip(schemas) {
        if let Value::Object(object) = &mut schema
            && let Some(Value::Object(defs)) = object.remove("$defs")
        {
            for (name, definition) in defs {
                definitions.entry(name).or_insert(definition);
            }
        }
        if parameter.required {
            required.push(Value::String(parameter.name.clone()));
        }
        properties.insert(parameter.name.clone(), schema);
    }
    let mut root = Map::new();
    root.insert("type".to_owned(), json!("object"));
    root.insert("properties".to_owned(), Value::Object(properties));
    root.insert("required".to_owned(), Value::Array(required));
    if !definitions.is_empty() {
        root.insert("$defs".to_owned(), Value::Object(definitions));
    }
    let mut root = Value::Object(root);
    shorten_descriptions(&mut root, MODEL_BUDGET);
    root
}

/// The longest a description is kept when one must be shortened (see
/// [`shorten_descriptions`]): its first sentence, within this many characters.
const SHORT_DESCRIPTION: usize = 160;

/// Shortens the descriptions in an arguments schema that, whole, is over `budget`
/// characters — a tool with many parameters each described at length (EC2's
/// `RunInstances`: 43 parameters, 44,000 characters) — one step at a time until it fits:
/// descriptions below the parameters cut to their first sentence, then the parameters' own,
/// then those below the parameters dropped, then the parameters' cut shorter still. The
/// schema's shape (names, types, required) is never touched, so a call written from it is
/// the same; validation reads the parameters, not this.
pub(crate) fn shorten_descriptions(schema: &mut Value, budget: usize) {
    let steps: [(usize, Option<usize>); 4] = [
        (2, Some(SHORT_DESCRIPTION)),
        (1, Some(SHORT_DESCRIPTION)),
        (2, None),
        (1, Some(SHORT_DESCRIPTION / 2)),
    ];
    for (from_depth, keep) in steps {
        if serialized_len(schema) <= budget {
            return;
        }
        shorten_at(schema, 0, from_depth, keep);
    }
}

/// How long `value` is as JSON, without building the text.
pub(crate) fn serialized_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => usize::MAX,
    }
}

/// Shortens (to `keep` characters, by [`first_sentence`]) or, with `None`, drops the
/// `description` of every schema at `depth` or below `from_depth` (the arguments object is
/// depth 0, a parameter's schema 1), following only the keywords that hold schemas.
fn shorten_at(schema: &mut Value, depth: usize, from_depth: usize, keep: Option<usize>) {
    use crate::definitions::{SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS};
    // Deeper than any schema read from JSON (serde_json stops at 128 levels): a schema
    // built deeper by hand keeps its deepest descriptions rather than exhaust the stack.
    const MAX_DEPTH: usize = 128;
    let Value::Object(object) = schema else {
        return;
    };
    if depth > MAX_DEPTH {
        return;
    }
    if depth >= from_depth {
        match keep {
            Some(limit) => {
                if let Some(Value::String(text)) = object.get_mut("description")
                    && let Some(short) = first_sentence(text, limit)
                {
                    *text = short;
                }
            }
            None => {
                object.remove("description");
            }
        }
    }
    for (key, value) in object.iter_mut() {
        let key = key.as_str();
        if SCHEMA_KEYWORDS.contains(&key) {
            shorten_at(value, depth + 1, from_depth, keep);
        } else if SCHEMA_LIST_KEYWORDS.contains(&key) {
            if let Value::Array(items) = value {
                for item in items {
                    shorten_at(item, depth + 1, from_depth, keep);
                }
            }
        } else if SCHEMA_MAP_KEYWORDS.contains(&key)
            && let Value::Object(map) = value
        {
            // A definition is as deep as what refers to it: at least a parameter's part.
            let depth = if key == "$defs" || key == "definitions" {
                depth.max(1)
            } else {
                depth
            };
            for item in map.values_mut() {
                shorten_at(item, depth + 1, from_depth, keep);
            }
        }
    }
}

/// `text` cut to its first sentence, or to `limit` characters at a word boundary, with `…`;
/// `None` when it is already that short.
fn first_sentence(text: &str, limit: usize) -> Option<String> {
    (text.chars().count() > limit).then(|| cut_text(text, limit, true))
}

/// `text`, longer than `keep` characters, cut to them with `…` after: at the end of its
/// first sentence when `sentence` and one ends after the twentieth byte, else at the last
/// space past the middle, else where `keep` falls.
pub(crate) fn cut_text(text: &str, keep: usize, sentence: bool) -> String {
    let cut: String = text.chars().take(keep).collect();
    let stop = || {
        [". ", ".\n", ".<", "。"]
            .iter()
            // The stop's first character (the full stop) stays.
            .filter_map(|stop| {
                let first = stop.chars().next().map_or(1, char::len_utf8);
                cut.match_indices(stop)
                    .map(|(at, _)| at + first)
                    .find(|&at| at >= 20)
            })
            .min()
    };
    let end = sentence
        .then(stop)
        .flatten()
        .or_else(|| {
            cut.rfind(char::is_whitespace)
                .filter(|&at| at > cut.len() / 2)
        })
        .unwrap_or(cut.len());
    let mut short = cut[..end].trim_end().to_owned();
    short.push('…');
    short
}

/// A tool a driver offers: a name, a short title and/or a description, and parameters.
///
/// The standard requires at least one of title and description, so a `Tool` cannot be
/// built (or deserialized) without one; [`Tool::description`] falls back to the title.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ToolRepr")]
pub struct Tool {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(default)]
    parameters: Vec<ToolParameter>,
    #[serde(default, skip_serializing_if = "ToolAnnotations::is_empty")]
    annotations: ToolAnnotations,
}

/// The unchecked wire shape of a [`Tool`].
#[derive(Deserialize)]
struct ToolRepr {
    name: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    parameters: Vec<ToolParameter>,
    #[serde(default)]
    annotations: ToolAnnotations,
}

/// What a tool does to the world, as hints a client may show or act on (ask before a
/// destructive call, run read-only ones freely): MCP's tool annotations, under their MCP
/// names on the wire (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`).
/// `None` is "not said"; MCP reads an unsaid hint as not read-only, destructive, not
/// idempotent and open-world. Hints describe, they do not enforce: a client that needs a
/// guarantee checks it itself.
///
/// ```
/// use mcs_core::{Tool, ToolAnnotations};
///
/// let tool = Tool::new("delete_repo", "Deletes a repository.")
///     .with_annotations(ToolAnnotations::default().destructive(true).idempotent(true));
/// assert_eq!(tool.annotations().destructive, Some(true));
/// assert_eq!(tool.annotations().read_only, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// The tool changes nothing (`readOnlyHint`).
    #[serde(
        rename = "readOnlyHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub read_only: Option<bool>,
    /// A change it makes may destroy something (`destructiveHint`; meaningful when it is
    /// not read-only).
    #[serde(
        rename = "destructiveHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub destructive: Option<bool>,
    /// Calling it again with the same arguments changes nothing more (`idempotentHint`).
    #[serde(
        rename = "idempotentHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub idempotent: Option<bool>,
    /// It reaches beyond a closed world: the web, a third party's API (`openWorldHint`).
    #[serde(
        rename = "openWorldHint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub open_world: Option<bool>,
}

impl ToolAnnotations {
    /// No hint said (the same as `default()`, usable in constants).
    pub const fn new() -> Self {
        ToolAnnotations {
            read_only: None,
            destructive: None,
            idempotent: None,
            open_world: None,
        }
    }

    /// Whether no hint is said.
    pub fn is_empty(&self) -> bool {
        *self == ToolAnnotations::default()
    }

    /// Says whether the tool only reads.
    #[must_use]
    pub const fn read_only(mut self, value: bool) -> Self {
        self.read_only = Some(value);
        self
    }

    /// Says whether a change it makes may destroy something.
    #[must_use]
    pub const fn destructive(mut self, value: bool) -> Self {
        self.destructive = Some(value);
        self
    }

    /// Says whether calling it again with the same arguments changes nothing more.
    #[must_use]
    pub const fn idempotent(mut self, value: bool) -> Self {
        self.idempotent = Some(value);
        self
    }

    /// Says whether it reaches beyond a closed world.
    #[must_use]
    pub const fn open_world(mut self, value: bool) -> Self {
        self.open_world = Some(value);
        self
    }
}

impl TryFrom<ToolRepr> for Tool {
    type Error = MissingToolText;

    fn try_from(repr: ToolRepr) -> Result<Self, Self::Error> {
        Ok(Tool::try_new(repr.name, repr.title, repr.description)?
            .with_parameters(repr.parameters)
            .with_annotations(repr.annotations))
    }
}

/// A tool was given neither a title nor a description.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tool `{name}` has neither a title nor a description; the standard requires one")]
pub struct MissingToolText {
    /// The tool's name.
    pub name: String,
}

impl Tool {
    /// A tool with a description (and no title).
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Tool {
            name: name.into(),
            title: None,
            description: Some(description.into()),
            parameters: Vec::new(),
            annotations: ToolAnnotations::default(),
        }
    }

    /// A tool known only by its title; its description is the title.
    pub fn with_only_title(name: impl Into<String>, title: impl Into<String>) -> Self {
        Tool {
            name: name.into(),
            title: Some(title.into()),
            description: None,
            parameters: Vec::new(),
            annotations: ToolAnnotations::default(),
        }
    }

    /// A tool from optional parts; fails when both title and description are missing
    /// or blank.
    pub fn try_new(
        name: impl Into<String>,
        title: Option<String>,
        description: Option<String>,
    ) -> Result<Self, MissingToolText> {
        let name = name.into();
        let present = |text: &Option<String>| text.as_deref().is_some_and(|t| !t.trim().is_empty());
        if !present(&title) && !present(&description) {
            return Err(MissingToolText { name });
        }
        Ok(Tool {
            name,
            title: title.filter(|t| !t.trim().is_empty()),
            description: description.filter(|d| !d.trim().is_empty()),
            parameters: Vec::new(),
            annotations: ToolAnnotations::default(),
        })
    }

    /// Sets the short title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Appends a parameter.
    #[must_use]
    pub fn with_parameter(mut self, parameter: ToolParameter) -> Self {
        self.parameters.push(parameter);
        self
    }

    /// Replaces the parameters.
    #[must_use]
    pub fn with_parameters(mut self, parameters: Vec<ToolParameter>) -> Self {
        self.parameters = parameters;
        self
    }

    /// Sets what the tool does to the world ([`ToolAnnotations`]).
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// The name a model calls the tool by.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The short title, if one was given.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The description, or the title when there is no description.
    pub fn description(&self) -> &str {
        // `try_new` and deserialization guarantee one of the two.
        self.description
            .as_deref()
            .or(self.title.as_deref())
            .unwrap_or_default()
    }

    /// What a model reads of the tool where the format has no title (OpenAI, Anthropic,
    /// Gemini, the MCS listing, and the description MCP hosts pass on): the description,
    /// led by the title when it has both and the title says something the description does
    /// not (a word of three letters or more that it lacks). An OpenAPI operation's summary
    /// is often its best line: `Find pet by ID` before `Returns a single pet`; a label like
    /// `Note` before `Takes a note.` adds nothing and is left out.
    pub fn model_description(&self) -> Cow<'_, str> {
        let (Some(title), Some(description)) = (self.title.as_deref(), self.description.as_deref())
        else {
            return Cow::Borrowed(self.description());
        };
        let title = title.trim();
        let lower = description.to_lowercase();
        let adds = title
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| word.chars().count() >= 3)
            .any(|word| !lower.contains(&word.to_lowercase()));
        if !adds {
            return Cow::Borrowed(description);
        }
        let stop = if title.ends_with(['.', ':', '!', '?']) {
            ""
        } else {
            "."
        };
        Cow::Owned(format!("{title}{stop} {}", description.trim_start()))
    }

    /// The title, or the first line of the description: the cheapest label for a listing.
    pub fn label(&self) -> &str {
        match &self.title {
            Some(title) => title,
            None => self.description().lines().next().unwrap_or_default(),
        }
    }

    /// What the tool does to the world, as far as its driver said.
    pub fn annotations(&self) -> &ToolAnnotations {
        &self.annotations
    }

    /// The parameters, in declaration order.
    pub fn parameters(&self) -> &[ToolParameter] {
        &self.parameters
    }

    /// Looks up a parameter by name.
    pub fn parameter(&self, name: &str) -> Option<&ToolParameter> {
        self.parameters.iter().find(|p| p.name == name)
    }

    /// The arguments object as one JSON Schema: `{"type": "object", "properties", "required"}`.
    ///
    /// Definitions that recursive parameter types keep are hoisted to the root, where their
    /// `#/$defs/...` references resolve.
    pub fn input_schema(&self) -> Value {
        object_schema(&self.parameters)
    }
}

/// What a driver reports of one tool call it found in a model's output.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    /// The tool's name as the model wrote it.
    pub name: String,
    /// The arguments the tool was called with. A string longer than
    /// [`ToolCallRecord::MAX_RECORDED_STRING`] bytes is recorded as a note of its length
    /// (`"<omitted: 104857600 bytes>"`): the tool received it whole, and the model's output
    /// holds it, so a 100 MB argument is not kept twice.
    #[serde(default)]
    pub arguments: Value,
    /// The raw result, when the call succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// What went wrong, when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The provider's id of the call (OpenAI `call_…`, Anthropic `toolu_…`), if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ToolCallRecord {
    /// The longest string argument kept whole in [`arguments`](Self::arguments), in bytes.
    pub const MAX_RECORDED_STRING: usize = 64 * 1024;

    /// `arguments` as a record keeps them: a copy in which every string longer than
    /// [`MAX_RECORDED_STRING`](Self::MAX_RECORDED_STRING) is replaced by a note of its
    /// length, so that the copy costs little however large the arguments are.
    pub fn recorded_arguments(arguments: &Value) -> Value {
        match arguments {
            Value::String(text) if text.len() > Self::MAX_RECORDED_STRING => {
                Value::String(format!("<omitted: {} bytes>", text.len()))
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(Self::recorded_arguments).collect())
            }
            Value::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(key, value)| (key.clone(), Self::recorded_arguments(value)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// A driver's answer to one model output.
///
/// The empty response (`DriverResponse::default()`) means "no call for this driver": the
/// output is a final answer, or belongs to another driver.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DriverResponse {
    /// The raw result of the executed call (of the last one, when there were several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_result: Option<Value>,
    /// At least one call was executed.
    #[serde(default)]
    pub call_executed: bool,
    /// At least one call was recognised but could not be parsed, validated or executed.
    #[serde(default)]
    pub call_failed: bool,
    /// What happened, for the program.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_detail: Option<String>,
    /// What to tell the model so it can try again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_prompt: Option<String>,
    /// Messages to append to the conversation: the model's output and the tool results (or
    /// the retry hint), in the shape of the provider that produced the call. `None` when no
    /// call was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<Value>>,
    /// Every call found, with its outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub executed_calls: Vec<ToolCallRecord>,
}

impl DriverResponse {
    /// Whether this is the empty response: no call this driver owns was found.
    pub fn is_empty(&self) -> bool {
        !self.call_executed && !self.call_failed && self.messages.is_none()
    }
}

/// The text content of a chat message (`content` as a string, or the text parts of a list).
pub fn message_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A tool like EC2's `RunInstances`: many parameters, each described at length, with
    /// nested parts described too.
    fn verbose_tool(parameters: usize) -> Tool {
        let long = "Launches the instances. ".to_owned()
            + &"You can specify a number of options, or leave the defaults. ".repeat(12);
        let mut tool = Tool::new("run_instances", "Launches instances.");
        for n in 0..parameters {
            tool = tool.with_parameter(
                ToolParameter::new(format!("option{n}"), long.clone())
                    .with_schema(
                        json!({"type": "object", "description": long, "properties": {
                            "value": {"type": "string", "description": long},
                            "note": {"type": "string", "description": "説明です。".repeat(80)},
                        }}),
                    )
                    .required(n % 2 == 0),
            );
        }
        tool
    }

    #[test]
    fn boolean_property_schemas_are_listed_as_objects() {
        let tool = Tool::new("update", "Updates.")
            .with_parameter(ToolParameter::new("anything", "").with_schema(json!(true)))
            .with_parameter(ToolParameter::new("never", "Not sent.").with_schema(json!(false)));
        let schema = tool.input_schema();
        assert_eq!(schema["properties"]["anything"], json!({}));
        assert_eq!(
            schema["properties"]["never"],
            json!({"not": {}, "description": "Not sent."})
        );
    }

    #[test]
    fn a_schema_of_many_long_descriptions_is_shortened_to_the_budget() {
        let tool = verbose_tool(43);
        let whole: usize = tool
            .parameters()
            .iter()
            .map(|p| p.property_schema().to_string().len())
            .sum();
        assert!(whole > 4 * MODEL_BUDGET, "{whole}");
        let schema = tool.input_schema();
        let text = schema.to_string();
        assert!(text.len() <= MODEL_BUDGET, "{}", text.len());
        // The shape is untouched: every parameter, its type, its parts, what is required.
        let properties = schema["properties"].as_object().unwrap();
        assert_eq!(properties.len(), 43);
        assert_eq!(schema["required"].as_array().unwrap().len(), 22);
        assert_eq!(
            properties["option7"]["properties"]["value"]["type"],
            "string"
        );
        // A parameter keeps the start of what it says, marked as cut.
        let said = properties["option7"]["description"].as_str().unwrap();
        assert!(said.starts_with("Launches the instances."), "{said}");
        assert!(said.ends_with('…'), "{said}");
    }

    #[test]
    fn a_schema_within_the_budget_keeps_every_word() {
        let tool = verbose_tool(2);
        let schema = tool.input_schema();
        assert!(schema.to_string().len() <= MODEL_BUDGET);
        let expected = tool.parameters()[1].property_schema();
        assert_eq!(schema["properties"]["option1"], expected);
    }

    #[test]
    fn sentences_are_cut_on_character_boundaries() {
        let japanese = "説明です。".repeat(80);
        let short = first_sentence(&japanese, 160).unwrap();
        assert!(short.ends_with('…'));
        assert!(short.chars().count() <= 161);
        assert_eq!(first_sentence("Short.", 160), None);
        let words = "word ".repeat(100);
        let cut = first_sentence(&words, 50).unwrap();
        assert_eq!(cut, format!("{}…", "word ".repeat(10).trim_end()));
    }

    #[test]
    fn annotations_travel_under_their_mcp_names() {
        let tool = Tool::new("rm", "Removes a file.").with_annotations(
            ToolAnnotations::default()
                .read_only(false)
                .destructive(true),
        );
        let wire = serde_json::to_value(&tool).unwrap();
        assert_eq!(
            wire["annotations"],
            json!({"readOnlyHint": false, "destructiveHint": true})
        );
        let back: Tool = serde_json::from_value(wire).unwrap();
        assert_eq!(back, tool);
        let plain = serde_json::to_value(Tool::new("ls", "Lists.")).unwrap();
        assert!(plain.get("annotations").is_none(), "{plain}");
    }

    #[test]
    fn records_keep_short_strings_and_note_long_ones() {
        let long = "y".repeat(ToolCallRecord::MAX_RECORDED_STRING + 1);
        let exact = "z".repeat(ToolCallRecord::MAX_RECORDED_STRING);
        let arguments = json!({
            "path": "a.txt",
            "parts": [long, {"inner": long}, 3, null],
            "exact": exact,
        });
        let recorded = ToolCallRecord::recorded_arguments(&arguments);
        let note = format!("<omitted: {} bytes>", long.len());
        assert_eq!(
            recorded,
            json!({"path": "a.txt", "parts": [note, {"inner": note}, 3, null], "exact": exact})
        );
    }
}
