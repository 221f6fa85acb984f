// RandomQuote: two quick taps on a slow, random loader; `cancelInFlight` keeps only the last.
//
// Run it:     Playground/run RandomQuote
// In an app:  replace `FakeQuoteAPI.quote(_:)` with a URLSession request (the original MiniRedux
//             README's quote example makes one), keep the reducer, and send `.getQuoteTapped`
//             from a button.
//
// The latencies are random but seeded, so every run prints the same trace. Here request #1 takes
// 180 ms and #2 takes 40 ms: without `cancelInFlight`, the stale quote #1 would land last and
// overwrite #2. With it, the second tap cancels request #1, and its quote can never land.

import MiniRedux

/// A quote server stand-in: request `n` takes a pseudo-random 10...200 ms, fixed by `seed`.
struct FakeQuoteAPI: Sendable {
  static let quotes = [
    "Simplicity is prerequisite for reliability. - Edsger W. Dijkstra",
    "Make it work, make it right, make it fast. - Kent Beck",
    "Premature optimization is the root of all evil. - Donald Knuth",
  ]
  var seed: UInt64

  func latencyInMilliseconds(ofRequest number: Int) -> Int {
    // NB: SplitMix64, so the numbers are the same on every platform and Swift version.
    var x = seed &+ UInt64(number) &* 0x9E37_79B9_7F4A_7C15
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    x ^= x >> 31
    return 10 + Int(x % 191)
  }

  func quote(_ number: Int) async throws -> String {
    try await Task.sleep(for: .milliseconds(latencyInMilliseconds(ofRequest: number)))
    return Self.quotes[number % Self.quotes.count]
  }
}

struct RandomQuote {
  struct State {
    var text = ""
    var requests = 0
    var landed: [Int] = []
  }
  enum Action {
    case getQuoteTapped
    case quoteLoaded(request: Int, quote: String)
  }
  enum CancelID { case load }

  @MainActor static func store(api: FakeQuoteAPI) -> Store<State, Action> {
    return Store(initialState: State()) { state, action in
      switch action {
      case .getQuoteTapped:
        state.requests += 1
        let number = state.requests
        let latency = api.latencyInMilliseconds(ofRequest: number)
        state.text = "Loading... (request #\(number) takes \(latency) ms)"
        return .run { send in
          await send(.quoteLoaded(request: number, quote: try await api.quote(number)))
        } catch: { error, send in
          await send(.quoteLoaded(request: number, quote: "Error: \(error)"))
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
      case .quoteLoaded(let number, let quote):
        state.text = "#\(number): \(quote)"
        state.landed.append(number)
        return .none
      }
    }
  }
}

let store = RandomQuote.store(api: FakeQuoteAPI(seed: 25))

// Two taps in a row, with no `await` between them: the second cancels the first request.
let firstTap = store.send(.getQuoteTapped)
print("tap 1:", store.state.text)  // tap 1: Loading... (request #1 takes 180 ms)
let secondTap = store.send(.getQuoteTapped)
print("tap 2:", store.state.text)  // tap 2: Loading... (request #2 takes 40 ms)

await firstTap.finish()
print("request #1 cancelled:", firstTap.isCancelled)  // request #1 cancelled: true
await secondTap.finish()
print("shown:", store.state.text)  // shown: #2: Premature optimization is the root of all evil. ...
print("quotes that landed:", store.state.landed)  // quotes that landed: [2]
