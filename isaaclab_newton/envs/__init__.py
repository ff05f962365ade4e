"""Environment pieces (MDP terms) that run on the Newton backend."""
