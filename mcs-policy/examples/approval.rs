//! A destructive tool that waits for a person: the scripted model lists the repositories
//! (read-only, runs freely), then asks to delete one, and the policy asks you first.
//!
//! ```text
//! cargo run -p mcs-policy --example approval
//! ```
//!
//! At a terminal, answer `y` to let the deletion run. When standard input is not a
//! terminal (CI, a pipe) or ends, the approver declines, and the model is told the user
//! declined: so the example also runs unattended.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Mutex;
use std::time::Duration;

use mcs::Driver;
use mcs::llm::{Conversation, LlmClient, ScriptedClient, StopReason};
use mcs_policy::{ApprovalRequest, Decision, Policy};

struct Repos {
    names: Mutex<Vec<String>>,
}

#[mcs::tool_driver(name = "repos")]
impl Repos {
    /// Lists the repositories.
    #[tool(read_only)]
    fn list_repos(&self) -> Vec<String> {
        self.names.lock().unwrap().clone()
    }

    /// Deletes a repository and its history, for good.
    #[tool(destructive)]
    fn delete_repo(&self, name: String) -> Result<String, String> {
        let mut names = self.names.lock().unwrap();
        let before = names.len();
        names.retain(|n| *n != name);
        if names.len() == before {
            return Err(format!("there is no repository `{name}`"));
        }
        Ok(format!("deleted `{name}`"))
    }
}

/// Asks at the terminal; declines when no one can answer there.
async fn ask_at_the_terminal(request: ApprovalRequest) -> Decision {
    if !std::io::stdin().is_terminal() {
        println!(
            "[approval] `{}` {} needs approval; standard input is not a terminal: declined",
            request.tool.name(),
            request.arguments
        );
        return Decision::decline("no one was at the terminal to approve it");
    }
    // A thread of its own, not the runtime's blocking pool: if the approval times out,
    // the pending read must not keep the program from exiting.
    let (answer, answered) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        print!(
            "[approval] Run `{}` with {}? [y/N] ",
            request.tool.name(),
            request.arguments
        );
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        let decision = match std::io::stdin().lock().read_line(&mut line) {
            Ok(0) | Err(_) => Decision::decline("no answer came"),
            Ok(_) if matches!(line.trim(), "y" | "Y" | "yes") => Decision::Approve,
            Ok(_) => Decision::decline("the user said no"),
        };
        let _ = answer.send(decision);
    });
    answered
        .await
        .unwrap_or_else(|_| Decision::decline("the prompt went away"))
}

fn scripted_model() -> ScriptedClient {
    ScriptedClient::from_texts([
        r#"{"tool": "list_repos", "arguments": {}}"#,
        r#"{"tool": "delete_repo", "arguments": {"name": "old-website"}}"#,
        "I listed your repositories and asked to delete `old-website`; the tool result \
         above says whether you allowed it.",
    ])
    .with_model("qwen2.5-7b-instruct")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repos = Repos {
        names: Mutex::new(vec!["mcs".into(), "old-website".into()]),
    };
    let guarded = Policy::new()
        .approve_destructive()
        .approver(ask_at_the_terminal)
        .approval_timeout(Duration::from_secs(60))
        .timeout(Duration::from_secs(30))
        .wrap(repos);

    let client = scripted_model();
    let conversation = Conversation::new(&guarded as &dyn Driver).max_rounds(6);
    let opening = conversation.opening(
        client.model(),
        "Clean up: delete the old website repository.",
    );
    let transcript = conversation.run(&client, opening).await?;
    println!("{transcript}");
    println!(
        "repositories left: {:?}",
        guarded.inner().names.lock().unwrap()
    );
    if transcript.stop != StopReason::Answered {
        return Err("the model did not reach an answer".into());
    }
    Ok(())
}
