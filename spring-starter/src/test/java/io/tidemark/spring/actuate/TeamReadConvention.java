package io.tidemark.spring.actuate;

import io.micrometer.common.KeyValues;

/** An application's convention that renames reads and tags them with the team that owns them. */
class TeamReadConvention extends DefaultReadObservationConvention {

  @Override
  public String getName() {
    return "shop.read";
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(ReadObservationContext context) {
    return super.getLowCardinalityKeyValues(context).and("team", "orders");
  }
}
