"""`pip install --no-build-isolation ./python`: builds the module with the project's CMake
(the release preset's options, the module's target only) and installs the package with it.
Needs what `make build` needs (scripts/setup.sh) and setuptools; no network."""

import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent.parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                        "-DPTMPL_UNITY_BUILD=ON", "-DPTMPL_PYTHON=ON", "-DPTMPL_BUILD_PROGRAMS=OFF",
                        "-DPTMPL_BUILD_TESTS=OFF", "-DPTMPL_BUILD_BENCHMARKS=OFF",
                        f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "ptmpl_python", "-j", str(os.cpu_count() or 2)],
                       check=True)
        built = next((build / "python" / "ptmpl").glob("_ptmpl*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    name="ptmpl",
    version="0.1.0",
    description="Lint, format, convert and schedule project templates (ptmpl's library for Python)",
    packages=["ptmpl"],
    package_data={"ptmpl": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension("ptmpl._ptmpl", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.8",
    zip_safe=False,
)
