//! Conformance against an independent judge: Prism mocks each document of `../shared/specs`
//! with request validation, and the generated driver of each calls every operation with
//! arguments built from the tool's own schema (every argument, required and optional) and
//! the credentials its security asks for. Prism answers 404 for a route the document does
//! not have, 422 for an invalid request, 401 for missing credentials: none may occur.
//!
//! Then arguments the schema refuses (a required argument left out, a value of the wrong
//! type): mcs refuses them before sending — nothing reaches Prism — with a hint that names
//! the argument.
//!
//! Needs Node.js and `npm ci --prefix tests/conformance` (`.ci/run` does both); without
//! them the test says why and passes. With `MCS_GITHUB=1`, GitHub's whole description is
//! generated and checked the same way (opt-in: it is large). `cargo test -p generated-specs --test prism --
//! --nocapture` prints the report per document.
#![cfg(shared_specs)]

mod support;

use std::path::Path;
use std::sync::{Arc, Mutex};

use generated_specs::{Gitlab, OpenAi, Slack, Spotify, Vercel, Xkcd};
use mcs::rest::{HttpRequest, HttpResponse, HttpTransport, ReqwestTransport, TransportError};
use mcs::{BoxFuture, ToolDriver, ToolError};
use support::arguments::{invalid_arguments, valid_arguments};
use support::prism::{Mock, prism, refusal};

/// Sends through reqwest and keeps what went out and what came back.
#[derive(Debug, Default)]
struct Recorder {
    inner: ReqwestTransport,
    exchanges: Mutex<Vec<(String, u16, String)>>,
}

impl Recorder {
    fn take(&self) -> Vec<(String, u16, String)> {
        std::mem::take(&mut *self.exchanges.lock().unwrap())
    }
}

impl HttpTransport for Recorder {
    fn send(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, TransportError>> {
        Box::pin(async move {
            let content_type = request
                .headers
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("content-type"))
                .map_or("", |(_, value)| value.as_str());
            let line = format!("{:?} {} ({content_type})", request.method, request.url);
            let answer = self.inner.send(request).await;
            let (status, body) = match &answer {
                Ok(response) => (
                    response.status,
                    String::from_utf8_lossy(&response.body).into_owned(),
                ),
                Err(error) => (0, error.to_string()),
            };
            self.exchanges.lock().unwrap().push((line, status, body));
            answer
        })
    }
}

/// Where the document of `file` is: `../shared/specs`, or for GitHub's (generated with
/// `MCS_GITHUB=1`), the npm package in `tests/conformance`.
fn document(file: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if file == GITHUB {
        root.join("../conformance/node_modules/@octokit/openapi/generated")
            .join(file)
    } else {
        root.join("../../../shared/specs").join(file)
    }
}

const GITHUB: &str = "api.github.com.json";

/// Each generated driver, pointed at `url` with every kind of credential, over `recorder`.
fn drivers(url: &str, recorder: &Arc<Recorder>) -> Vec<(&'static str, Box<dyn ToolDriver>)> {
    let transport: Arc<dyn HttpTransport> = recorder.clone();
    macro_rules! configured {
        ($driver:ty) => {
            Box::new(
                <$driver>::new()
                    .with_base_url(url)
                    .with_bearer_token("test-token")
                    .with_basic_auth("user", "password")
                    .with_api_key("test-key")
                    .with_transport(Arc::clone(&transport)),
            ) as Box<dyn ToolDriver>
        };
    }
    #[allow(unused_mut)]
    let mut all = vec![
        ("xkcd.com.json", configured!(Xkcd)),
        ("openai.com.json", configured!(OpenAi)),
        ("spotify.com.json", configured!(Spotify)),
        ("slack.com.json", configured!(Slack)),
        ("gitlab.com.json", configured!(Gitlab)),
        ("vercel.com.json", configured!(Vercel)),
    ];
    #[cfg(github_spec)]
    all.push((GITHUB, configured!(generated_specs::GitHub)));
    all
}

#[derive(Default)]
struct Report {
    operations: usize,
    called: usize,
    accepted: usize,
    /// Refused only because of how Prism reads requests: arrays in form-urlencoded bodies,
    /// `oneOf` parameters.
    prism_limits: Vec<String>,
    problems: Vec<String>,
}

/// Prism reads no array out of an `application/x-www-form-urlencoded` body: neither
/// repeated keys (what OpenAPI's default `style: form, explode: true` means, and what mcs
/// sends) nor any other encoding — stoplightio/prism#2473, open; fix proposed in #2654. A
/// refusal whose every complaint is "body property X must be array" on such a body is
/// Prism's limit, not the request's fault.
/// Prism reads a path or query parameter's text as every type its `oneOf` alternatives
/// allow, so `1` for `oneOf: [integer, string]` (GitHub's `workflow_id`) fits both and is
/// refused, whatever the client sends for a numeric id.
fn prism_reads_text_as_every_alternative(body: &str) -> bool {
    let Ok(problem) = serde_json::from_str::<serde_json::Value>(body) else {
        return false;
    };
    let Some(errors) = problem["validation"].as_array() else {
        return false;
    };
    !errors.is_empty()
        && errors.iter().all(|error| {
            matches!(error["location"][0].as_str(), Some("path" | "query"))
                && error["message"]
                    .as_str()
                    .is_some_and(|m| m.ends_with("must match exactly one schema in oneOf"))
        })
}

fn prism_cannot_read_form_arrays(line: &str, body: &str) -> bool {
    let Ok(problem) = serde_json::from_str::<serde_json::Value>(body) else {
        return false;
    };
    let Some(errors) = problem["validation"].as_array() else {
        return false;
    };
    line.contains("application/x-www-form-urlencoded")
        && !errors.is_empty()
        && errors.iter().all(|error| {
            error["location"][0] == "body"
                && error["message"]
                    .as_str()
                    .is_some_and(|m| m.ends_with("must be array"))
        })
}

async fn conform(file: &str, driver: &dyn ToolDriver, recorder: &Recorder) -> Report {
    let mut report = Report::default();
    for tool in driver.list_tools().iter() {
        report.operations += 1;
        let schema = tool.input_schema();
        let arguments = match valid_arguments(&schema) {
            Ok(arguments) => arguments,
            Err(why) => {
                report
                    .problems
                    .push(format!("{file} {}: no valid arguments: {why}", tool.name()));
                continue;
            }
        };
        report.called += 1;
        let result = driver.execute_tool(tool.name(), arguments.clone()).await;
        if let Err(ToolError::InvalidArguments { problems, .. }) = &result {
            report.problems.push(format!(
                "{file} {}: mcs refused {arguments}: {problems:?}",
                tool.name()
            ));
            recorder.take();
            continue;
        }
        let exchanges = recorder.take();
        let refused: Vec<String> = exchanges
            .iter()
            .filter_map(|(line, status, body)| {
                refusal(*status, body).map(|why| format!("{line}: {why}"))
            })
            .collect();
        if !refused.is_empty()
            && exchanges.iter().all(|(line, status, body)| {
                refusal(*status, body).is_none()
                    || prism_cannot_read_form_arrays(line, body)
                    || prism_reads_text_as_every_alternative(body)
            })
        {
            report
                .prism_limits
                .push(format!("{file} {}: {}", tool.name(), refused.join(" | ")));
            continue;
        }
        match (exchanges.is_empty(), refused.is_empty()) {
            (true, _) => report.problems.push(format!(
                "{file} {}: nothing was sent ({result:?})",
                tool.name()
            )),
            (false, true) => report.accepted += 1,
            (false, false) => report.problems.push(format!(
                "{file} {} with {arguments}: {}",
                tool.name(),
                refused.join(" | ")
            )),
        }
    }
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_of_every_document_passes_prisms_request_validation() {
    let bin = match prism() {
        Ok(bin) => bin,
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let recorder = Arc::new(Recorder::default());
    let mut problems = Vec::new();
    let mut limits = Vec::new();
    println!(
        "| document | operations | called | accepted by Prism | refused by Prism's reading limits |"
    );
    println!("|---|---:|---:|---:|---:|");
    for index in 0..drivers("", &recorder).len() {
        let file = drivers("", &recorder)[index].0;
        let mock = Mock::start(&bin, &document(file)).unwrap();
        let (_, driver) = drivers(&mock.url, &recorder).swap_remove(index);
        let report = conform(file, driver.as_ref(), &recorder).await;
        println!(
            "| {file} | {} | {} | {} | {} |",
            report.operations,
            report.called,
            report.accepted,
            report.prism_limits.len()
        );
        problems.extend(report.problems);
        limits.extend(report.prism_limits);
    }
    for limit in &limits {
        println!("Prism's reading limit: {limit}");
    }
    for problem in &problems {
        println!("{problem}");
    }
    assert!(
        problems.is_empty(),
        "{} operations failed (listed above)",
        problems.len()
    );
}

#[tokio::test]
async fn arguments_the_schema_refuses_never_leave_the_process() {
    let recorder = Arc::new(Recorder::default());
    // Nothing listens here: a request that went out would fail to connect, not be refused.
    let mut checked = 0;
    for (file, driver) in drivers("http://127.0.0.1:9", &recorder) {
        for tool in driver.list_tools().iter() {
            let schema = tool.input_schema();
            let Ok(valid) = valid_arguments(&schema) else {
                continue;
            };
            let Some((invalid, argument)) = invalid_arguments(&schema, &valid) else {
                continue;
            };
            let error = driver
                .execute_tool(tool.name(), invalid.clone())
                .await
                .expect_err(&format!("{file} {} accepted {invalid}", tool.name()));
            let ToolError::InvalidArguments { problems, .. } = &error else {
                panic!("{file} {}: {error}", tool.name());
            };
            assert!(
                problems
                    .iter()
                    .any(|p| p.argument == argument
                        || p.argument.starts_with(&format!("{argument}."))),
                "{file} {}: the hint does not name `{argument}`: {error}",
                tool.name()
            );
            assert!(error.to_string().contains(&argument), "{error}");
            checked += 1;
        }
        assert!(
            recorder.take().is_empty(),
            "{file}: a refused call was sent"
        );
    }
    println!("{checked} refused calls, none sent");
    assert!(checked > 600, "only {checked} tools had arguments to break");
}

/// Answers that cannot decode because the document contradicts itself, each with why.
/// Prism makes its answers from the schema, and where the schema is wrong, so is the answer.
const DOCUMENT_DEFECTS: &[(&str, &str, &str)] = &[
    (
        "slack.com.json",
        "chat_scheduleMessage",
        "`post_at` is `type: integer` with a string `pattern` (`^\\d{10}$`); Prism makes a \
         string from the pattern, and the document's own example (`\"post_at\": \"1562180400\"`) \
         is a string too",
    ),
    (
        "slack.com.json",
        "chat_scheduledMessages_list",
        "`scheduled_messages[].post_at` and `date_created`: the same integer-with-a-pattern \
         schema as chat_scheduleMessage's `post_at`",
    ),
];

/// What the typed calls of one document came to.
#[derive(Default)]
struct TypedReport {
    operations: usize,
    /// Accepted by Prism, and its answer decoded into the generated type.
    decoded: usize,
    /// Refused only because of how Prism reads requests (as in the untyped test).
    prism_limits: Vec<String>,
    /// Accepted by Prism, which then made no answer to decode: its example generator
    /// failed (a 500 of type UNKNOWN), or no response had content it could negotiate (a
    /// status with no body).
    no_answer: Vec<String>,
    /// Answers that do not decode because the document contradicts itself
    /// ([`DOCUMENT_DEFECTS`]).
    document_defects: Vec<String>,
    problems: Vec<String>,
}

impl TypedReport {
    /// Files how the typed call of `tool` went, given what went over the wire.
    fn file(
        &mut self,
        file: &str,
        tool: &str,
        outcome: generated_specs::TypedOutcome,
        exchanges: &[(String, u16, String)],
    ) {
        use generated_specs::TypedOutcome;
        self.operations += 1;
        let refused: Vec<String> = exchanges
            .iter()
            .filter_map(|(line, status, body)| {
                refusal(*status, body).map(|why| format!("{line}: {why}"))
            })
            .collect();
        let prism_limit = !refused.is_empty()
            && exchanges.iter().all(|(line, status, body)| {
                refusal(*status, body).is_none()
                    || prism_cannot_read_form_arrays(line, body)
                    || prism_reads_text_as_every_alternative(body)
            });
        if prism_limit {
            self.prism_limits
                .push(format!("{file} {tool}: {}", refused.join(" | ")));
            return;
        }
        if !refused.is_empty() {
            self.problems.push(format!(
                "{file} {tool}: Prism refused the typed request: {}",
                refused.join(" | ")
            ));
            return;
        }
        let no_answer = |status: u16, body: &str| {
            if body.contains("prism/errors#UNKNOWN") {
                let title = serde_json::from_str::<serde_json::Value>(body)
                    .ok()
                    .and_then(|p| {
                        p["title"]
                            .as_str()
                            .map(|t| t.lines().next().unwrap_or("").to_owned())
                    })
                    .unwrap_or_default();
                Some(format!(
                    "{status}: Prism's example generator failed: {title}"
                ))
            } else if body.contains("prism/errors#NO_COMPLEX_OBJECT_TEXT") {
                Some(format!(
                    "{status}: Prism cannot write an object for a `*/*` response (it tries text)"
                ))
            } else if body.trim().is_empty() && (300..400).contains(&status) {
                Some(format!(
                    "{status}: the document's answer is a redirect, with no body"
                ))
            } else if body.trim().is_empty() && !(200..300).contains(&status) {
                Some(format!(
                    "{status} with no body: no response Prism could negotiate"
                ))
            } else {
                None
            }
        };
        let answered = exchanges
            .last()
            .map(|(_, status, body)| (*status, body.as_str()));
        if !matches!(outcome, TypedOutcome::Answered(_))
            && let Some(why) = answered.and_then(|(status, body)| no_answer(status, body))
        {
            self.no_answer.push(format!("{file} {tool}: {why}"));
            return;
        }
        match outcome {
            TypedOutcome::Answered(_) => self.decoded += 1,
            TypedOutcome::Unexpected { status, reason, .. }
                if DOCUMENT_DEFECTS.iter().any(|(f, t, _)| *f == file && *t == tool) =>
            {
                let (_, _, why) = DOCUMENT_DEFECTS
                    .iter()
                    .find(|(f, t, _)| *f == file && *t == tool)
                    .expect("just found");
                self.document_defects
                    .push(format!("{file} {tool} ({status}, {reason}): {why}"));
            }
            TypedOutcome::Arguments(why) => self.problems.push(format!(
                "{file} {tool}: the arguments do not read into the argument struct: {why}"
            )),
            TypedOutcome::Failed(status) => self.problems.push(format!(
                "{file} {tool}: Prism answered {status} to a request it did not refuse: {exchanges:?}"
            )),
            TypedOutcome::Unexpected {
                status,
                reason,
                body,
            } => {
                let excerpt: String = body.chars().take(300).collect();
                self.problems.push(format!(
                    "{file} {tool}: the answer ({status}) does not decode: {reason}; body: {excerpt}"
                ));
            }
            TypedOutcome::Call(why) => self
                .problems
                .push(format!("{file} {tool}: the typed call failed: {why}")),
        }
    }
}

/// Calls every operation of the typed driver `$driver` through `$calls` against `$url`.
macro_rules! typed_conform {
    ($file:expr, $driver:ty, $calls:path, $url:expr, $recorder:expr) => {{
        let transport: Arc<dyn HttpTransport> = $recorder.clone();
        let driver = <$driver>::new()
            .with_base_url($url)
            .with_bearer_token("test-token")
            .with_basic_auth("user", "password")
            .with_api_key("test-key")
            .with_transport(transport);
        let mut report = TypedReport::default();
        for tool in driver.list_tools().iter() {
            let arguments = match valid_arguments(&tool.input_schema()) {
                Ok(arguments) => arguments,
                Err(why) => {
                    report.operations += 1;
                    report.problems.push(format!(
                        "{} {}: no valid arguments: {why}",
                        $file,
                        tool.name()
                    ));
                    continue;
                }
            };
            let Some(outcome) = $calls(&driver, tool.name(), arguments) else {
                report.operations += 1;
                report
                    .problems
                    .push(format!("{} {}: no typed method", $file, tool.name()));
                continue;
            };
            let outcome = outcome.await;
            let exchanges = $recorder.take();
            report.file($file, tool.name(), outcome, &exchanges);
        }
        report
    }};
}

/// Typed all the way, against the same judge: every operation of every document called
/// through the typed driver's typed method, with arguments read into its argument struct
/// (typed enums, structs, unions) from the JSON made from the tool's schema. Prism (with
/// answers made from the response schemas, `--dynamic`, a fixed seed) must accept each
/// request, and its answer must decode into the operation's generated response type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_called_typed_is_accepted_and_its_answer_decodes() {
    use generated_specs::{typed, typed_calls};
    let bin = match prism() {
        Ok(bin) => bin,
        Err(why) => {
            println!("skipped: {why}");
            return;
        }
    };
    let recorder = Arc::new(Recorder::default());
    let mut problems = Vec::new();
    let mut explained = Vec::new();
    println!(
        "| document | operations | request accepted, answer decoded | Prism's reading limits \
         | no answer to decode | the document contradicts itself | failures |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    #[allow(unused_mut)]
    let mut files = vec![
        "xkcd.com.json",
        "openai.com.json",
        "spotify.com.json",
        "slack.com.json",
        "gitlab.com.json",
        "vercel.com.json",
    ];
    #[cfg(github_spec)]
    files.push(GITHUB);
    for file in files {
        let mock = Mock::start_dynamic(&bin, &document(file)).unwrap();
        let url = mock.url.as_str();
        let report = match file {
            "xkcd.com.json" => typed_conform!(file, typed::Xkcd, typed_calls::xkcd, url, recorder),
            "openai.com.json" => {
                typed_conform!(file, typed::OpenAi, typed_calls::openai, url, recorder)
            }
            "spotify.com.json" => {
                typed_conform!(file, typed::Spotify, typed_calls::spotify, url, recorder)
            }
            "slack.com.json" => {
                typed_conform!(file, typed::Slack, typed_calls::slack, url, recorder)
            }
            "gitlab.com.json" => {
                typed_conform!(file, typed::Gitlab, typed_calls::gitlab, url, recorder)
            }
            "vercel.com.json" => {
                typed_conform!(file, typed::Vercel, typed_calls::vercel, url, recorder)
            }
            #[cfg(github_spec)]
            GITHUB => typed_conform!(file, typed::GitHub, typed_calls::github, url, recorder),
            other => unreachable!("no typed driver for {other}"),
        };
        println!(
            "| {file} | {} | {} | {} | {} | {} | {} |",
            report.operations,
            report.decoded,
            report.prism_limits.len(),
            report.no_answer.len(),
            report.document_defects.len(),
            report.problems.len()
        );
        problems.extend(report.problems);
        explained.extend(
            report
                .prism_limits
                .into_iter()
                .map(|l| format!("Prism's reading limit: {l}")),
        );
        explained.extend(
            report
                .no_answer
                .into_iter()
                .map(|l| format!("Prism made no answer: {l}")),
        );
        explained.extend(
            report
                .document_defects
                .into_iter()
                .map(|l| format!("The document contradicts itself: {l}")),
        );
    }
    for line in &explained {
        println!("{line}");
    }
    for problem in &problems {
        println!("{problem}");
    }
    assert!(
        problems.is_empty(),
        "{} typed calls failed (listed above)",
        problems.len()
    );
}
