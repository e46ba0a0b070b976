# gpu-advisor: setuptools only (Python 3.12 has no distutils); CFLAGS from the environment are
# kept after the engine's own (a sanitizer or debug build passes its flags that way).
from setuptools import setup, Extension
from setuptools.command import install_lib as _install_lib
from os import environ
from sys import platform

if platform == 'win32':
  _cflags = '-std=c99 -D_GNU_SOURCE -_WIN32'
elif platform == 'darwin':
  _cflags = '-std=c99 -D_GNU_SOURCE -fcommon'
else:
  _cflags = '-std=c99 -D_GNU_SOURCE'
environ['CFLAGS'] = (_cflags + ' ' + environ.get('CFLAGS', '')).strip()

# Patch "install_lib" command to run build_clib before build_ext
# to properly work with easy_install.
# See: http://bugs.python.org/issue5243
class install_lib(_install_lib.install_lib):
  def build(self):
    if not self.skip_build:
      if self.distribution.has_pure_modules():
        self.run_command('build_py')
        if self.distribution.has_c_libraries():
          self.run_command('build_clib')
        if self.distribution.has_ext_modules():
          self.run_command('build_ext')

rules_lib = ('durable_rules_engine_py', {'sources': ['src/rules/%s.c' % src for src in ('json', 'rete', 'state', 'events', 'regex')]})

rules = Extension('durable_rules_engine',
                  sources = ['src/rulespy/rules.c'],
                  include_dirs=['src/rules'],
                  # gpu-advisor: relink when the engine's sources change, not only rules.c
                  depends=['src/rules/%s' % src for src in ('json.c', 'rete.c', 'state.c', 'events.c', 'regex.c',
                                                            'json.h', 'rete.h', 'state.h', 'regex.h', 'rules.h')])

long_description = ('durable-rules 2.0.28 with the patches that gpu-advisor needs '
                    '(PATCHES.md beside setup.py lists each one and why).')

setup (
    name = 'durable_rules',
    version = '2.0.28+gpuadvisor.1',
    description = 'for real time analytics (a Python Rules Engine)',
    long_description=long_description,
    url='https://github.com/jruizgit/rules',
    author='Jesus Ruiz',
    author_email='jr3791@live.com',
    license='MIT',
    classifiers=[
        'Operating System :: OS Independent',
        'Development Status :: 4 - Beta',
        'Intended Audience :: Developers',
        'Topic :: Software Development :: Libraries',
        'Programming Language :: C',
        'Programming Language :: Python :: 3.11',
        'Programming Language :: Python :: 3.12',
        'Programming Language :: Python :: 3.13',
    ],
    python_requires='>=3.11',
    keywords='rules engine rete forward chaining event stream state machine workflow streaming analytics',
    packages = ['durable'],
    package_dir = {'': 'libpy'},
    libraries = [rules_lib],
    ext_modules = [rules],
    # Override 'install_lib' command
    cmdclass={'install_lib': install_lib},
)
