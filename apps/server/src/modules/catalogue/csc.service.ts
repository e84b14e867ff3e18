import type { TCity, TCountry, TState } from '@kisht/domain/catalogue/csc.schema';
import { City, Country, State } from 'country-state-city';

/** Countries of the country-state-city data set, by name (the add-customer address form). */
export const listCountries = (): TCountry[] =>
  Country.getAllCountries().map((c) => ({ code: c.isoCode, name: c.name, phoneCode: c.phonecode }));

/** States of a country (ISO 3166-2 subdivision codes without the country prefix); [] for an unknown country. */
export const listStates = (countryCode: string): TState[] =>
  State.getStatesOfCountry(countryCode).map((s) => ({ code: s.isoCode, name: s.name }));

/** Cities of a state; [] for an unknown country or state. */
export const listCities = (countryCode: string, stateCode: string): TCity[] =>
  City.getCitiesOfState(countryCode, stateCode).map((c) => ({ name: c.name }));

/** True when the address names a real country, state of it, and city of that state. */
export const isKnownPlace = (address: { countryCode: string; stateCode: string; city: string }): boolean =>
  listCities(address.countryCode, address.stateCode).some((c) => c.name === address.city);
