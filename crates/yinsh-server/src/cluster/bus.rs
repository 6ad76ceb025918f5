//! The message bus between the nodes of a cluster: named channels that carry byte
//! messages to every subscriber, in the order one publisher sent them.
//!
//! Two implementations behind one trait: [`LocalBus`] in the process (one node, and
//! tests of several nodes in one process), and [`RedisBus`] over Redis pub/sub (a
//! cluster of processes). Like Redis pub/sub, the bus keeps nothing: a subscriber
//! hears what is published while it is subscribed, and a subscriber that falls behind
//! or loses its connection is told so with a [`Delivery::Gap`] once it hears again, so
//! that it can resynchronise from whoever owns the state.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use prometheus_client::metrics::counter::Counter;
use tokio::sync::{mpsc, oneshot};

use crate::metrics::Metrics;

/// Messages waiting for a subscriber; one that lets more pile up misses them (and is
/// told of the gap).
pub const QUEUE: usize = 4096;

/// A future of the bus.
pub type BusFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, BusError>> + Send + 'a>>;

/// The bus cannot be reached (or refused a command).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BusError(pub String);

impl std::fmt::Display for BusError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "message bus: {}", self.0)
    }
}

impl std::error::Error for BusError {}

/// What a subscription hears.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// A message published on one of its channels.
    Message {
        /// The channel.
        channel: Arc<str>,
        /// What was published.
        payload: Arc<[u8]>,
    },
    /// Messages may have been missed just before this one (the subscriber fell behind,
    /// or its connection to the bus was lost and made again).
    Gap,
}

/// The messages of some channels, from the moment [`Bus::subscribe`] returned; ends
/// when the bus is gone.
pub struct Subscription {
    rx: mpsc::Receiver<Delivery>,
    /// Counts the messages received, if they are counted.
    received: Option<Counter>,
}

impl Subscription {
    fn new(rx: mpsc::Receiver<Delivery>) -> Subscription {
        Subscription { rx, received: None }
    }

    /// The next delivery; `None` once the bus is gone.
    pub async fn next(&mut self) -> Option<Delivery> {
        let delivery = self.rx.recv().await;
        if let (Some(Delivery::Message { .. }), Some(counter)) = (&delivery, &self.received) {
            counter.inc();
        }
        delivery
    }
}

/// A message bus.
pub trait Bus: Send + Sync {
    /// Sends `payload` to every subscriber of `channel`. Messages one caller publishes
    /// one after the other reach each subscriber in that order.
    fn publish<'a>(&'a self, channel: &'a str, payload: &'a [u8]) -> BusFuture<'a, ()>;

    /// Subscribes to `channels`: every message published on them after this returns.
    fn subscribe<'a>(&'a self, channels: &'a [String]) -> BusFuture<'a, Subscription>;
}

/// One subscriber's queue, and whether it has missed messages it was not told of.
struct Subscriber {
    tx: mpsc::Sender<Delivery>,
    lagged: bool,
}

impl Subscriber {
    /// Queues `delivery`; `false` once the subscription is gone.
    fn offer(&mut self, delivery: &Delivery) -> bool {
        use mpsc::error::TrySendError;
        if self.lagged {
            match self.tx.try_send(Delivery::Gap) {
                Ok(()) => self.lagged = false,
                Err(TrySendError::Full(_)) => return true,
                Err(TrySendError::Closed(_)) => return false,
            }
        }
        match self.tx.try_send(delivery.clone()) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                self.lagged = true;
                true
            }
            Err(TrySendError::Closed(_)) => false,
        }
    }
}

/// The bus of one process: the single-node default, and several nodes in one test.
#[derive(Clone, Default)]
pub struct LocalBus {
    channels: Arc<Mutex<HashMap<String, Vec<Subscriber>>>>,
}

impl LocalBus {
    /// A bus nobody listens to yet.
    pub fn new() -> LocalBus {
        LocalBus::default()
    }
}

impl Bus for LocalBus {
    fn publish<'a>(&'a self, channel: &'a str, payload: &'a [u8]) -> BusFuture<'a, ()> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(subscribers) = channels.get_mut(channel) {
            let delivery = Delivery::Message {
                channel: channel.into(),
                payload: payload.into(),
            };
            subscribers.retain_mut(|s| s.offer(&delivery));
            if subscribers.is_empty() {
                channels.remove(channel);
            }
        }
        Box::pin(std::future::ready(Ok(())))
    }

    fn subscribe<'a>(&'a self, names: &'a [String]) -> BusFuture<'a, Subscription> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        for name in names {
            channels.entry(name.clone()).or_default().push(Subscriber {
                tx: tx.clone(),
                lagged: false,
            });
        }
        Box::pin(std::future::ready(Ok(Subscription::new(rx))))
    }
}

/// The channels of one cluster on a bus that others may share: every channel name gets
/// the cluster's prefix (`yinsh:<cluster id>:`). Redis pub/sub has one space of channel
/// names for the whole server, whatever database a connection selects, so two clusters
/// on one Redis would otherwise hear each other's lobbies. Deliveries name the channel
/// as the bus knows it, prefix included.
pub struct Prefixed {
    inner: Arc<dyn Bus>,
    prefix: String,
    /// Counters of the messages sent and received (the server's metrics).
    counted: Option<(Counter, Counter)>,
}

impl Prefixed {
    /// The channels of cluster `cluster` on `inner`.
    pub fn new(inner: Arc<dyn Bus>, cluster: &str) -> Prefixed {
        Prefixed {
            inner,
            prefix: format!("yinsh:{cluster}:"),
            counted: None,
        }
    }

    /// The same, counting the messages it sends and receives in `metrics`.
    pub fn counted(mut self, metrics: &Metrics) -> Prefixed {
        self.counted = Some((metrics.bus_counter("sent"), metrics.bus_counter("received")));
        self
    }

    fn name(&self, channel: &str) -> String {
        format!("{}{channel}", self.prefix)
    }
}

impl Bus for Prefixed {
    fn publish<'a>(&'a self, channel: &'a str, payload: &'a [u8]) -> BusFuture<'a, ()> {
        Box::pin(async move {
            self.inner.publish(&self.name(channel), payload).await?;
            if let Some((sent, _)) = &self.counted {
                sent.inc();
            }
            Ok(())
        })
    }

    fn subscribe<'a>(&'a self, channels: &'a [String]) -> BusFuture<'a, Subscription> {
        Box::pin(async move {
            let names: Vec<String> = channels.iter().map(|c| self.name(c)).collect();
            let mut subscription = self.inner.subscribe(&names).await?;
            subscription.received = self.counted.as_ref().map(|(_, r)| r.clone());
            Ok(subscription)
        })
    }
}

/// Redis pub/sub (`redis://host:port`): a cluster's bus.
///
/// Publishing goes over one multiplexed connection (made again after a failure);
/// each subscription has a connection of its own, read by a task that makes it again
/// (with a back-off) when it is lost and then delivers a [`Delivery::Gap`]. A
/// subscriber that does not read holds up its task, and Redis cuts a connection whose
/// output buffer grows past its limit: that too comes out as a gap.
pub struct RedisBus {
    client: redis::Client,
    publisher: tokio::sync::Mutex<Option<redis::aio::MultiplexedConnection>>,
}

/// The longest wait between two attempts to subscribe again.
const BACKOFF_MAX: Duration = Duration::from_secs(2);

fn redis_error(e: redis::RedisError) -> BusError {
    BusError(e.to_string())
}

impl RedisBus {
    /// A bus over the Redis server at `url`; fails when it does not answer.
    pub async fn connect(url: &str) -> Result<RedisBus, BusError> {
        let client = redis::Client::open(url).map_err(redis_error)?;
        let conn = client
            .get_multiplexed_async_connection()
            .await
            .map_err(redis_error)?;
        Ok(RedisBus {
            client,
            publisher: tokio::sync::Mutex::new(Some(conn)),
        })
    }

    async fn pubsub(
        client: &redis::Client,
        channels: &[String],
    ) -> redis::RedisResult<redis::aio::PubSub> {
        let mut pubsub = client.get_async_pubsub().await?;
        pubsub.subscribe(channels).await?;
        Ok(pubsub)
    }
}

impl Bus for RedisBus {
    fn publish<'a>(&'a self, channel: &'a str, payload: &'a [u8]) -> BusFuture<'a, ()> {
        Box::pin(async move {
            // The lock is held while the command is sent, so that one publisher's
            // messages go out in the order it published them.
            let mut publisher = self.publisher.lock().await;
            let conn = match publisher.as_mut() {
                Some(conn) => conn,
                None => publisher.insert(
                    self.client
                        .get_multiplexed_async_connection()
                        .await
                        .map_err(redis_error)?,
                ),
            };
            let sent: redis::RedisResult<i64> = redis::cmd("PUBLISH")
                .arg(channel)
                .arg(payload)
                .query_async(conn)
                .await;
            if let Err(e) = sent {
                // Made again for the next message.
                *publisher = None;
                return Err(redis_error(e));
            }
            Ok(())
        })
    }

    fn subscribe<'a>(&'a self, channels: &'a [String]) -> BusFuture<'a, Subscription> {
        Box::pin(async move {
            let first = RedisBus::pubsub(&self.client, channels)
                .await
                .map_err(redis_error)?;
            let (tx, rx) = mpsc::channel(QUEUE);
            let client = self.client.clone();
            let channels = channels.to_vec();
            let (started, start) = oneshot::channel::<()>();
            tokio::spawn(async move {
                let _ = started.send(());
                let mut pubsub = Some(first);
                let mut backoff = Duration::from_millis(50);
                loop {
                    if let Some(conn) = pubsub.take() {
                        let mut stream = conn.into_on_message();
                        loop {
                            let msg = tokio::select! {
                                msg = stream.next() => msg,
                                _ = tx.closed() => return,
                            };
                            let Some(msg) = msg else { break };
                            let delivery = Delivery::Message {
                                channel: msg.get_channel_name().into(),
                                payload: msg.get_payload_bytes().into(),
                            };
                            if tx.send(delivery).await.is_err() {
                                return;
                            }
                        }
                        tracing::warn!("lost the message bus subscription; subscribing again");
                    }
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => {}
                        _ = tx.closed() => return,
                    }
                    match RedisBus::pubsub(&client, &channels).await {
                        Ok(conn) => {
                            backoff = Duration::from_millis(50);
                            pubsub = Some(conn);
                            if tx.send(Delivery::Gap).await.is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            tracing::warn!("cannot subscribe to the message bus: {e}");
                            backoff = (backoff * 2).min(BACKOFF_MAX);
                        }
                    }
                }
            });
            let _ = start.await;
            Ok(Subscription::new(rx))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(d: Option<Delivery>) -> String {
        match d {
            Some(Delivery::Message { channel, payload }) => {
                format!("{channel}:{}", String::from_utf8_lossy(&payload))
            }
            Some(Delivery::Gap) => "gap".to_owned(),
            None => "end".to_owned(),
        }
    }

    #[tokio::test]
    async fn every_subscriber_hears_its_channels_in_order() {
        let bus = LocalBus::new();
        let mut a = bus.subscribe(&["x".into(), "y".into()]).await.unwrap();
        let mut b = bus.subscribe(&["y".into()]).await.unwrap();
        for (channel, payload) in [("x", "1"), ("y", "2"), ("z", "3"), ("y", "4")] {
            bus.publish(channel, payload.as_bytes()).await.unwrap();
        }
        assert_eq!(text(a.next().await), "x:1");
        assert_eq!(text(a.next().await), "y:2");
        assert_eq!(text(a.next().await), "y:4");
        assert_eq!(text(b.next().await), "y:2");
        assert_eq!(text(b.next().await), "y:4");
    }

    #[tokio::test]
    async fn clusters_sharing_a_bus_hear_only_their_own_channels() {
        let shared: Arc<dyn Bus> = Arc::new(LocalBus::new());
        let (one, two) = (
            Prefixed::new(shared.clone(), "one"),
            Prefixed::new(shared.clone(), "two"),
        );
        let mut at_one = one.subscribe(&["lobby".into()]).await.unwrap();
        let mut at_two = two.subscribe(&["lobby".into()]).await.unwrap();
        one.publish("lobby", b"1").await.unwrap();
        two.publish("lobby", b"2").await.unwrap();
        assert_eq!(text(at_one.next().await), "yinsh:one:lobby:1");
        assert_eq!(text(at_two.next().await), "yinsh:two:lobby:2");
        // Nothing else came.
        one.publish("lobby", b"3").await.unwrap();
        assert_eq!(text(at_one.next().await), "yinsh:one:lobby:3");
    }

    #[tokio::test]
    async fn a_subscriber_that_falls_behind_is_told_of_the_gap() {
        let bus = LocalBus::new();
        let mut slow = bus.subscribe(&["x".into()]).await.unwrap();
        for i in 0..QUEUE + 10 {
            bus.publish("x", i.to_string().as_bytes()).await.unwrap();
        }
        for i in 0..QUEUE {
            assert_eq!(text(slow.next().await), format!("x:{i}"));
        }
        // The ten that found the queue full are lost; the next message comes after a gap.
        bus.publish("x", b"later").await.unwrap();
        assert_eq!(text(slow.next().await), "gap");
        assert_eq!(text(slow.next().await), "x:later");
    }

    #[tokio::test]
    async fn a_dropped_subscription_is_forgotten() {
        let bus = LocalBus::new();
        let gone = bus.subscribe(&["x".into()]).await.unwrap();
        drop(gone);
        bus.publish("x", b"1").await.unwrap();
        assert!(bus.channels.lock().unwrap().is_empty());
    }
}
