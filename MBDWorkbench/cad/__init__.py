"""FreeCAD side of the workbench: finding FreeCAD, reading geometry and mass properties.

Nothing here imports FreeCAD at import time; the functions import it when they are called
(see :func:`MBDWorkbench.cad.freecad_env.import_freecad`).
"""

from .errors import CadError
from .freecad_env import FreeCADNotFoundError, find_freecad_lib, import_freecad
from .mass_properties import MassProperties, mass_properties

__all__ = [
    "CadError",
    "FreeCADNotFoundError",
    "MassProperties",
    "find_freecad_lib",
    "import_freecad",
    "mass_properties",
]
