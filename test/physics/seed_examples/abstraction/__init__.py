"""The example of "Newton Manager Abstraction" (``newton_manager_abstraction.txt``), which sets three slots."""
