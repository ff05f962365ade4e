"""Isaac Lab sensors on the Newton backend, fed by solver observables."""
