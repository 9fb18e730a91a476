//! Aborts that name a call before all of its requests are queued: while a door still
//! prepares it (its id registered, its grammar compiling), and between the first sample of
//! an `n > 1` request and the others, which are queued once the first has begun.

use super::*;
use engine::handle::SubmitError;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// A request for `rid` of `tenant` that would run `max_new` tokens.
fn named(rid: &str, tenant: u32, max_new: u32) -> GenerateRequest {
    let mut request = GenerateRequest::new((300..316).collect(), SamplingParams::greedy(max_new));
    request.params.ignore_eos = true;
    request.rid = Some(rid.to_string());
    request.tenant = tenant;
    request
}

/// The events of `stream` to its end, as (chunks seen, finish reason).
fn ending(stream: RequestStream) -> (usize, FinishReason) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut stream = stream;
        let mut chunks = 0;
        loop {
            match stream.blocking_next() {
                Some(GenerateEvent::Chunk { .. }) => chunks += 1,
                Some(GenerateEvent::Finished(c)) => {
                    let _ = tx.send((chunks, c.finish_reason));
                    return;
                }
                other => panic!("no final event: {other:?}"),
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the stream ended")
}

/// A call an abort named while it was being prepared never runs: its samples end aborted
/// without a forward pass. Its id stays taken while its streams live (a second call by it
/// is refused, another tenant's is not), and `abort_every` reaches only its tenant's.
#[test]
fn a_call_aborted_while_prepared_ends_without_running() {
    let passes = Arc::new(AtomicUsize::new(0));
    let counted = passes.clone();
    let model = ScriptedModel::new(50_000, 512).with_forward_hook(Box::new(move |_| {
        counted.fetch_add(1, Ordering::SeqCst);
    }));
    let engine = start_model(model, 1024);
    engine.set_tenant_limits(
        ["t0", "t1", "t2", "t3"]
            .map(engine::tenants::TenantLimits::unlimited)
            .to_vec(),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut prepared = vec![named("job", 1, 40)];
    engine.open_calls(&mut prepared).unwrap();
    let duplicate = engine.open_call(1, Some("job")).map(|_| ());
    assert!(
        matches!(duplicate, Err(SubmitError::AlreadyExists(_))),
        "{duplicate:?}"
    );
    let theirs = engine.open_call(2, Some("job")).unwrap();
    // An abort by a tenant that has no such call finds nothing of tenant 1's.
    assert!(!engine.abort_owned("job", AbortScope::Tenant(3)));
    assert!(engine.abort_owned("job", AbortScope::Tenant(1)));
    assert!(!theirs.aborted(), "another tenant's call of the same id");
    let streams = rt.block_on(engine.submit_group(prepared, 3)).unwrap();
    assert_eq!(streams.len(), 3);
    assert!(streams.iter().all(|s| s.rid == "job"));
    for stream in streams {
        assert_eq!(ending(stream), (0, FinishReason::Abort));
    }
    assert_eq!(passes.load(Ordering::SeqCst), 0, "an aborted call ran");
    // Its id is free again once its streams are gone.
    drop(engine.open_call(1, Some("job")).unwrap());

    // `abort_every` marks every call of its tenant still being prepared, no other's.
    let mut mine = vec![named("a", 1, 4), named("b", 1, 4)];
    let mut other = vec![named("a", 2, 4)];
    engine.open_calls(&mut mine).unwrap();
    engine.open_calls(&mut other).unwrap();
    engine.abort_every(Some(1));
    let mine = rt.block_on(engine.submit_group(mine, 1)).unwrap();
    let other = rt.block_on(engine.submit_group(other, 1)).unwrap();
    for stream in mine {
        assert_eq!(ending(stream).1, FinishReason::Abort);
    }
    for stream in other {
        assert_eq!(ending(stream).1, FinishReason::Length);
    }
    drop(theirs);

    // An administrator's abort of an id it has being prepared ends that call alone, not
    // another tenant's request of the same id already running.
    let running = rt
        .block_on(engine.submit_group(vec![named("x", 1, 40)], 1))
        .unwrap();
    let admins = engine.open_call(0, Some("x")).unwrap();
    assert!(engine.abort_owned("x", AbortScope::PreferTenant(0)));
    assert!(admins.aborted());
    for stream in running {
        assert_eq!(ending(stream).1, FinishReason::Length);
    }

    // The engine's own ids step past one a client took.
    let made = engine.open_call(1, None).unwrap();
    let n: u64 = made.rid().strip_prefix("req-").unwrap().parse().unwrap();
    let taken = engine
        .open_call(1, Some(&format!("req-{}", n + 1)))
        .unwrap();
    let next = engine.open_call(1, None).unwrap();
    assert_eq!(next.rid(), format!("req-{}", n + 2));
    drop((admins, made, taken, next));
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}

/// An abort that reaches the first sample of an `n > 1` request after its first token,
/// before the other samples are queued, ends those too: they are not queued to run to
/// their end after an abort that named them.
#[test]
fn an_abort_between_the_first_sample_and_the_others_ends_them_all() {
    // Holds the scheduler in its first pass (the first sample's prompt), then in its
    // second (its first token is out by then), each until released.
    let passes = Arc::new(AtomicUsize::new(0));
    let holds = Arc::new([AtomicBool::new(true), AtomicBool::new(true)]);
    let (counted, held) = (passes.clone(), holds.clone());
    let model = ScriptedModel::new(50_000, 512).with_forward_hook(Box::new(move |_| {
        let pass = counted.fetch_add(1, Ordering::SeqCst);
        while held.get(pass).is_some_and(|h| h.load(Ordering::SeqCst)) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }));
    let engine = start_model(model, 1024);
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let streams = rt.block_on(async {
        let mut group = Box::pin(engine.submit_group(vec![named("s", 0, 200)], 3));
        // Queues the first sample, then waits for its first event; not polled again until
        // the abort below has reached the scheduler.
        let pending =
            std::future::poll_fn(|cx| std::task::Poll::Ready(group.as_mut().poll(cx).is_pending()))
                .await;
        assert!(pending);
        holds[0].store(false, Ordering::SeqCst);
        while passes.load(Ordering::SeqCst) < 2 {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(engine.abort_owned("s", AbortScope::Tenant(0)));
        holds[1].store(false, Ordering::SeqCst);
        common::wait_until(&engine, "the first sample aborted", |info| {
            info.running_requests == 0 && info.waiting_requests == 0
        });
        group.await.unwrap()
    });
    let endings: Vec<(usize, FinishReason)> = streams.into_iter().map(ending).collect();
    // The first sample had begun (its first token came before the abort); the others
    // never ran.
    assert!(endings[0].0 >= 1, "{endings:?}");
    assert_eq!(endings[0].1, FinishReason::Abort);
    assert_eq!(
        endings[1..],
        [(0, FinishReason::Abort), (0, FinishReason::Abort)]
    );
    assert_idle_without_leak(&engine);
    engine.shutdown(Duration::from_secs(1));
}
