// Package weather is the example of toolgen's design document: one tool, get_weather, with a
// typed enum, a default, numeric bounds and an example call.
package weather

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"strings"
)

// Unit is a temperature unit.
type Unit string

const (
	Celsius    Unit = "celsius"    // degrees Celsius
	Fahrenheit Unit = "fahrenheit" // degrees Fahrenheit
)

// WeatherArgs are the arguments of get_weather.
type WeatherArgs struct {
	// City name, e.g. Beijing, Tokyo.
	City string `json:"city" tool:"minLength=1"`
	// Temperature unit.
	Unit Unit `json:"unit,omitempty" tool:"default=celsius"`
	// Days of forecast to include.
	Days int `json:"days,omitempty" tool:"minimum=0,maximum=7,default=0"`
}

// Weather is the current weather of a city, with an optional forecast.
type Weather struct {
	// City the weather is for.
	City string `json:"city"`
	// Unit of every temperature in the result.
	Unit Unit `json:"unit"`
	// Temperature now.
	Temperature float64 `json:"temperature"`
	// Conditions now, e.g. "sunny".
	Conditions string `json:"conditions"`
	// Forecast for the following days, when asked for.
	Forecast []Day `json:"forecast,omitempty"`
}

// Day is one day of a forecast.
type Day struct {
	// Day counts from 1 (tomorrow).
	Day int `json:"day"`
	// High is the day's highest temperature.
	High float64 `json:"high"`
	// Low is the day's lowest temperature.
	Low float64 `json:"low"`
}

// GetWeather gets the current weather for a city. Returns temperature and conditions.
//
// Use it when the user asks about the weather, temperature or forecast of a named city.
//
//tool:name get_weather
//tool:tags weather
//tool:timeout 10s
//tool:example "Weather in Tokyo" {"city":"Tokyo"} => Current weather for Tokyo in celsius
func GetWeather(ctx context.Context, args WeatherArgs) (Weather, error) {
	if strings.EqualFold(args.City, "atlantis") {
		return Weather{}, fmt.Errorf("no weather station in %s; ask the user for a real city", args.City)
	}
	// A deterministic stand-in for a weather service, so the example runs offline.
	base := float64(len(args.City)%10) + 12
	w := Weather{City: args.City, Unit: args.Unit, Temperature: convert(base, args.Unit), Conditions: "partly cloudy"}
	for day := 1; day <= args.Days; day++ {
		w.Forecast = append(w.Forecast, Day{Day: day, High: convert(base+float64(day), args.Unit), Low: convert(base-4+float64(day), args.Unit)})
	}
	return w, nil
}

func convert(celsius float64, u Unit) float64 {
	if u == Fahrenheit {
		return celsius*9/5 + 32
	}
	return celsius
}
