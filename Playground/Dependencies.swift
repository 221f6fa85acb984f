// Dependencies: one reducer built from injected services, run with a live-like one and a mock.
//
// What TCA's older `Environment` and Pulse's `ServiceLocator` do, done with plain values.
//
// Run it:     Playground/run Dependencies   (the live-like service waits 50 ms per request)
// In an app:  build `AppServices.live` once at launch and pass it down; previews and tests pass a
//             copy with a service replaced, as below. No registry, no protocols, no singletons.

import MiniRedux

struct Forecast: Sendable {
  let city: String
  let celsius: Int
  let summary: String
}

/// A service is a struct of closures, so a replacement is one value away.
struct WeatherService: Sendable {
  var forecast: @Sendable (_ city: String) async throws -> Forecast
}

/// Every service the app uses: "registering" is building this value, "retrieving" is reading a
/// property, and overriding one is assigning it.
struct AppServices: Sendable {
  var weather: WeatherService
  var log: @Sendable (String) -> Void
}

extension AppServices {
  /// Like production, without a network: 50 ms of latency and made-up weather.
  static let live = AppServices(
    weather: WeatherService { city in
      try await Task.sleep(for: .milliseconds(50))
      let seed = city.unicodeScalars.reduce(0) { $0 + Int($1.value) }
      let summaries = ["sunny", "cloudy", "light rain", "windy"]
      return Forecast(city: city, celsius: seed % 30, summary: summaries[seed % summaries.count])
    },
    log: { _ in })

  /// Instant, fixed answers, an error for one city, and the log you pass.
  static func mock(log: @escaping @Sendable (String) -> Void) -> AppServices {
    AppServices(
      weather: WeatherService { city in
        guard city != "Atlantis" else { throw CityNotFound(city: city) }
        return Forecast(city: city, celsius: 21, summary: "mock sunshine")
      },
      log: log)
  }
}

struct CityNotFound: Error, CustomStringConvertible {
  let city: String
  var description: String { "no such city: \(city)" }
}

struct Weather {
  struct State {
    var lines: [String] = []
  }
  enum Action {
    case cityTapped(String)
    case forecastLoaded(Forecast)
    case forecastFailed(String)
  }

  /// The reducer reads its services from `services` and from nowhere else.
  static func reducer(_ services: AppServices) -> Reducer<State, Action> {
    return { state, action in
      switch action {
      case .cityTapped(let city):
        return .run { send in
          services.log("forecast requested for \(city)")
          await send(.forecastLoaded(try await services.weather.forecast(city)))
        } catch: { error, send in
          await send(.forecastFailed("\(error)"))
        }
      case .forecastLoaded(let forecast):
        state.lines.append("\(forecast.city): \(forecast.celsius) °C, \(forecast.summary)")
        return .none
      case .forecastFailed(let message):
        state.lines.append("error: \(message)")
        return .none
      }
    }
  }
}

@MainActor func tapCities(with services: AppServices) async {
  let store = Store(initialState: Weather.State(), Weather.reducer(services))
  for city in ["Oslo", "Lisbon", "Atlantis"] {
    await store.send(.cityTapped(city)).finish()
  }
  for line in store.state.lines { print("  " + line) }
}

print("live-like services:")
await tapCities(with: .live)
// live-like services:
//   Oslo: 23 °C, cloudy
//   Lisbon: 15 °C, windy
//   Atlantis: 22 °C, sunny

print("mock services:")
await tapCities(with: .mock(log: { message in print("  log:", message) }))
// mock services:
//   log: forecast requested for Oslo
//   log: forecast requested for Lisbon
//   log: forecast requested for Atlantis
//   Oslo: 21 °C, mock sunshine
//   Lisbon: 21 °C, mock sunshine
//   error: no such city: Atlantis
