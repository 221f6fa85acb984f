// MiniRedux · Copyright (c) 2026 The MiniRedux authors · MIT License: https://opensource.org/license/mit

#if canImport(Combine)
  import Combine
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A description of work a reducer asks the store to do after it has changed the state.
///
/// A reducer returns an `Effect` alongside its mutation. The effect is only a value: nothing runs
/// until the ``Store`` that called the reducer interprets it. Effects compose (`merge`,
/// `concatenate`, ``map(_:)``), can be cancelled by id
/// (``cancellable(id:cancelInFlight:)``, ``cancel(id:)``), and feed actions back into the store
/// through ``Send``.
///
/// Guarantees, all per store:
/// - ``run(priority:operation:catch:)`` operations run off the main actor; every `send` they make
///   hops to the main actor and is reduced there, in order.
/// - Once an effect is cancelled, nothing it sends is reduced, even if its operation ignores
///   cancellation.
/// - A finished effect leaves no bookkeeping behind.
///
/// ```swift
/// enum CancelID { case load }
///
/// let store = Store<String, QuoteAction>(initialState: "") { state, action in
///   switch action {
///   case .getQuoteTapped:
///     state = "Loading..."
///     return .run { send in
///       let quote = try await loadQuote()
///       await send(.quoteLoaded(quote))
///     } catch: { error, send in
///       await send(.quoteLoaded("Error: \(error)"))
///     }
///     .cancellable(id: CancelID.load, cancelInFlight: true)
///   case .quoteLoaded(let quote):
///     state = quote
///     return .none
///   }
/// }
/// ```
public struct Effect<Action: Sendable>: Sendable {
  let operation: Operation

  init(_ operation: Operation) {
    self.operation = operation
  }
}

// MARK: - Creating effects

extension Effect {
  /// An effect that does nothing: what a reducer returns when an action only changes state.
  ///
  /// ```swift
  /// case .incrementTapped:
  ///   state.count += 1
  ///   return .none
  /// ```
  public static var none: Self { Self(.none) }

  /// An effect that runs an async operation off the main actor and sends actions back.
  ///
  /// The operation starts as soon as the reducer returns. Each `await send(action)` hops to the
  /// main actor and reduces `action` before returning. If the effect is cancelled, sends are
  /// dropped, so a late result never lands.
  ///
  /// ```swift
  /// case .loadUser:
  ///   return .run { send in
  ///     await send(.userLoaded(try await api.user()))
  ///   } catch: { error, send in
  ///     await send(.loadFailed("\(error)"))
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The work to do. It receives a ``Send`` for feeding actions back.
  ///   - handler: Called with any error the operation throws, except `CancellationError`.
  ///     Without a handler, such an error is written to standard error together with the action
  ///     that started the effect.
  /// - Returns: An effect that runs `operation`.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @concurrent @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (
      @concurrent @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void
    )? = nil
  ) -> Self {
    Self(.run(priority, Work(operation: operation, handler: handler)))
  }

  /// An effect that sends an action back into the store immediately.
  ///
  /// The action is reduced before the `send` that produced this effect returns. Prefer calling
  /// shared logic directly; use `.send` when another feature must see the action.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .send(.delegate(.saved))
  /// ```
  ///
  /// - Parameter action: The action to reduce next.
  /// - Returns: An effect that sends `action`.
  public static func send(_ action: Action) -> Self {
    Self(.send(action))
  }
}

// MARK: - Composing effects

extension Effect {
  /// An effect that starts all of `effects` at once and ends when all of them have ended.
  ///
  /// ```swift
  /// return .merge(.send(.started), .run { send in await send(.loaded(try await load())) })
  /// ```
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// An effect that starts all of `effects` at once and ends when all of them have ended.
  ///
  /// ```swift
  /// case .searchAll(let queries):
  ///   return .merge(
  ///     queries.map { query in
  ///       .run { send in await send(.results(try await api.search(query))) }
  ///     })
  /// ```
  ///
  /// - Parameter effects: The effects to run side by side; `.none`s are dropped.
  /// - Returns: One effect, or `.none` if there is nothing to run.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    var children = effects.filter { !$0.isNone }
    switch children.count {
    case 0: return .none
    case 1: return children.removeLast()
    default: return Self(.merge(children))
    }
  }

  /// An effect that runs `effects` one after another, each starting when the previous one ended.
  ///
  /// If the concatenation is cancelled, the running effect is cancelled and the rest never start.
  ///
  /// ```swift
  /// return .concatenate(.run { _ in try await save() }, .send(.saved))
  /// ```
  public static func concatenate(_ effects: Self...) -> Self {
    concatenate(effects)
  }

  /// An effect that runs `effects` one after another, each starting when the previous one ended.
  ///
  /// ```swift
  /// case .saveAll(let drafts):
  ///   return .concatenate(drafts.map { draft in .run { _ in try await save(draft) } })
  /// ```
  ///
  /// - Parameter effects: The effects to run in order; `.none`s are dropped.
  /// - Returns: One effect, or `.none` if there is nothing to run.
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    var children = effects.filter { !$0.isNone }
    switch children.count {
    case 0: return .none
    case 1: return children.removeLast()
    default: return Self(.concatenate(children))
    }
  }

  /// Transforms the actions this effect sends, so a parent feature can run a child's effects.
  ///
  /// ```swift
  /// case .counter(let action):
  ///   return counterReducer(&state.counter, action).map(AppAction.counter)
  /// ```
  ///
  /// - Parameter transform: A pure function from this effect's action to the parent's action.
  /// - Returns: The same work, sending transformed actions. Cancellation ids are kept.
  public func map<T: Sendable>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let priority, let work):
      let handler = work.handler.map { handler in
        { @Sendable (error: any Error, send: Send<T>) in
          await handler(error, Send(send, transform))
        }
      }
      return Effect<T>(
        .run(
          priority,
          Effect<T>.Work(
            operation: { send in try await work.operation(Send(send, transform)) },
            handler: handler)))
    case .merge(let effects):
      return Effect<T>(.merge(effects.map { $0.map(transform) }))
    case .concatenate(let effects):
      return Effect<T>(.concatenate(effects.map { $0.map(transform) }))
    case .cancel(let id):
      return Effect<T>(.cancel(id))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<T>(.cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform)))
    }
  }
}

// MARK: - Cancellation and time

extension Effect {
  /// Makes this effect cancellable with ``cancel(id:)``.
  ///
  /// The effect, and everything it contains when it is a merge or a concatenation, is registered
  /// under `id` the moment it starts, so a `.cancel(id:)` later in the same reducer output, or in
  /// the next action, always finds it. Ids belong to one store and are compared by type and value:
  /// `1` and `1.0` are different ids. Wrappers nest: an effect inside two `cancellable`s is
  /// cancelled by either id.
  ///
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case .queryChanged(let query):
  ///   state.query = query
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// - Parameters:
  ///   - id: Any hashable value. It is hashed here and compared only on the main actor, so an
  ///     id type whose conformance is main-actor isolated (the default in app targets built with
  ///     `-default-isolation MainActor`) works as is.
  ///   - cancelInFlight: Whether to cancel effects already running under `id` before this one
  ///     starts. It never cancels this effect's own parts.
  /// - Returns: The same work, registered under `id`.
  public func cancellable(id: sending some Hashable, cancelInFlight: Bool = false) -> Self {
    if isNone && !cancelInFlight { return self }
    return Self(.cancellable(EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every in-flight effect registered under `id` in this store.
  ///
  /// Cancelling an id with nothing in flight does nothing. Effects that the cancelled effects
  /// already caused, by sending actions whose reducers started new effects, keep running; they
  /// still belong to the ``StoreTask`` of the `send` they descend from, which can cancel them.
  ///
  /// ```swift
  /// case .stopTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  ///
  /// - Parameter id: The id given to ``cancellable(id:cancelInFlight:)``, equal in type and value.
  /// - Returns: An effect that cancels, then ends at once.
  public static func cancel(id: sending some Hashable) -> Self {
    Self(.cancel(EffectID(id)))
  }

  /// Starts this effect after `duration`, unless a newer debounced effect with the same `id`
  /// arrives first, which replaces it.
  ///
  /// This is composition, not a new primitive: a sleep on `clock` concatenated with this effect,
  /// made ``cancellable(id:cancelInFlight:)`` with `cancelInFlight: true`. Pass your own clock to
  /// control time in tests.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   return .run { send in await send(.results(try await api.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300))
  /// ```
  ///
  /// - Parameters:
  ///   - id: The id that a newer debounced effect replaces this one by; `.cancel(id:)` with it
  ///     cancels the wait and the effect.
  ///   - duration: How long to wait for a newer effect before starting this one.
  ///   - clock: The clock to wait on; `ContinuousClock` unless you pass one.
  /// - Returns: This effect, started after `duration` unless replaced.
  public func debounce(
    id: sending some Hashable,
    for duration: Duration,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> Self {
    Self.concatenate(.run { _ in try await clock.sleep(for: duration) }, self)
      .cancellable(id: id, cancelInFlight: true)
  }
}

// MARK: - Send

/// Sends actions from an effect back into the store that started it.
///
/// Call it with `await` from an effect's operation: the call hops to the main actor and returns
/// once the action has been reduced. A send from a cancelled effect, or through a `Send` kept
/// after its store was released, is dropped.
///
/// ```swift
/// return .run { send in
///   for await value in values {
///     await send(.received(value))
///   }
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
  /// The effect sending, and its store's way in; shared by all its effects, so starting an
  /// effect makes no closure.
  let running: Running
  let deliver: @MainActor @Sendable (Action, Running) -> Void

  init(_ running: Running, deliver: @escaping @MainActor @Sendable (Action, Running) -> Void) {
    self.running = running
    self.deliver = deliver
  }

  init<Parent>(_ parent: Send<Parent>, _ transform: @escaping @Sendable (Action) -> Parent) {
    self.running = parent.running
    self.deliver = { action, running in parent.deliver(transform(action), running) }
  }

  /// Sends `action` to the store, unless the effect has been cancelled.
  ///
  /// The store reduces `action` before this returns, so `await send(action)` inside `.run` is
  /// done when the reducer is.
  ///
  /// - Parameter action: The action to reduce.
  @MainActor
  public func callAsFunction(_ action: Action) {
    // NB: A cancelled operation may still reach this line; cancellation must win.
    guard !Task.isCancelled else { return }
    deliver(action, running)
  }
}

// MARK: - Internals

extension Effect {
  indirect enum Operation: Sendable {
    case none
    case send(Action)
    case run(TaskPriority?, Work)
    case merge([Effect])
    case concatenate([Effect])
    case cancel(EffectID)
    case cancellable(EffectID, cancelInFlight: Bool, Effect)
  }

  struct Work: Sendable {
    let operation: @concurrent @Sendable (Send<Action>) async throws -> Void
    let handler: (@concurrent @Sendable (any Error, Send<Action>) async -> Void)?

    /// Runs the operation off the main actor and routes a thrown error to the handler or to
    /// standard error, exactly once.
    ///
    /// NB: Passing `nil` to the `isolated` parameter makes this function, and the operation it
    /// calls, run on the global executor. That holds under `NonisolatedNonsendingByDefault` and
    /// `-default-isolation MainActor` too, where an unannotated async closure would otherwise
    /// inherit the caller's main actor.
    func perform(
      _ send: Send<Action>, startedBy origin: Action, isolation: isolated (any Actor)? = nil
    ) async {
      do {
        try await operation(send)
      } catch is CancellationError {
      } catch {
        if let handler {
          await handler(error, send)
        } else {
          Report.uncaught(error, startedBy: origin)
        }
      }
    }
  }

  var isNone: Bool {
    if case .none = operation { return true }
    return false
  }
}

/// A cancellation id, compared by its type and its value, so `1` and `1.0` never collide.
///
/// NB: The value sits in a box that hashes it once, when the id is made, and compares it without
/// a dynamic cast of an existential: the store looks ids up on every effect it starts.
///
/// NB: Ids need not be `Sendable`. In a target built with `-default-isolation MainActor`, a plain
/// `enum CancelID { case load }` is main-actor isolated, and so is its `Hashable` conformance. The
/// box is sound anyway: the value is `sending` (no one else holds it), it is hashed in the caller's
/// own isolation when the id is made, and after that only compared, by the store, on the main
/// actor. Nothing else reads it.
struct EffectID: Hashable, Sendable {
  private let box: IDBox

  init<Value: Hashable>(_ value: sending Value) {
    box = TypedIDBox(value)
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box || (lhs.box.hash == rhs.box.hash && lhs.box.isEqual(to: rhs.box))
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(box.hash)
  }

  /// The value the id was made from. For tests, on the main actor.
  @MainActor var base: any Hashable { box.base }
}

private class IDBox: @unchecked Sendable {
  let hash: Int
  init(hash: Int) { self.hash = hash }
  @MainActor var base: any Hashable { fatalError("MiniRedux: IDBox is abstract") }
  func isEqual(to other: IDBox) -> Bool { fatalError("MiniRedux: IDBox is abstract") }
}

private final class TypedIDBox<Value: Hashable>: IDBox, @unchecked Sendable {
  let value: Value
  @MainActor override var base: any Hashable { value }

  init(_ value: sending Value) {
    var hasher = Hasher()
    hasher.combine(ObjectIdentifier(Value.self))
    hasher.combine(value)
    self.value = value
    super.init(hash: hasher.finalize())
  }

  override func isEqual(to other: IDBox) -> Bool {
    // NB: The value's `==` may be main-actor isolated; only the store, on the main actor, calls
    // this (checked in debug builds).
    MainActor.assertIsolated("MiniRedux compares cancellation ids only on the main actor")
    // NB: A metatype comparison, then an unchecked cast: `as?` costs a dynamic cast per lookup.
    guard type(of: other) == Self.self else { return false }
    return value == unsafeDowncast(other, to: Self.self).value
  }
}

/// Where misuse and uncaught errors are reported. Tests replace `write` for one task tree.
enum Report {
  nonisolated static let write = TaskLocal<@Sendable (String) -> Void>(wrappedValue: {
    writeToStandardError($0 + "\n")
  })

  nonisolated static func uncaught(_ error: any Error, startedBy action: some Sendable) {
    write.get()(
      """
      MiniRedux: an effect started by \(action) threw \(error), and it has no catch: handler. \
      Pass `catch:` to .run to turn errors into actions.
      """)
  }
}

nonisolated private func writeToStandardError(_ string: String) {
  #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    var string = string
    string.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
  #else
    print(string, terminator: "")
  #endif
}

#if canImport(Combine)
  extension Effect {
    /// An effect that sends every value a Combine publisher emits, until it completes or the
    /// effect is cancelled.
    ///
    /// ```swift
    /// case .listen:
    ///   return .publisher { [1, 2, 3].publisher.map(Action.heard) }
    /// ```
    ///
    /// - Parameter createPublisher: Makes the publisher when the effect starts.
    /// - Returns: An effect that subscribes to the publisher and sends what it emits.
    public static func publisher<P: Publisher>(
      _ createPublisher: @escaping @Sendable () -> P
    ) -> Self where P.Output == Action, P.Failure == Never {
      .run { send in
        let actions = AsyncStream<Action> { continuation in
          // NB: The subscription is touched only here and in onTermination, which Combine and
          // AsyncStream order; AnyCancellable is not Sendable.
          nonisolated(unsafe) let subscription = createPublisher().sink(
            receiveCompletion: { _ in continuation.finish() },
            receiveValue: { continuation.yield($0) })
          continuation.onTermination = { _ in subscription.cancel() }
        }
        for await action in actions {
          await send(action)
        }
      }
    }
  }
#endif
