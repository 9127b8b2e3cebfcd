//! `cardtable score --format parquet`'s output: the records (see
//! `records::record_schema`) written to a Parquet file by arrow-rs's
//! `parquet` crate, a row group per block, with no pyarrow. The core's
//! pipeline writes each block from its writer thread, detached; Python
//! writes the records of Arrow inputs and of blocks it fed itself.

use std::io::{self, Write};
use std::sync::{Mutex, MutexGuard};

use arrow_array::cast::AsArray;
use arrow_array::{Array, RecordBatch};
use arrow_schema::SchemaRef;
use cardtable_core::batch::{BlockSink, ScoredBlock};
use parquet::arrow::arrow_writer::{compute_leaves, ArrowColumnChunk, ArrowRowGroupWriterFactory};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use pyo3_arrow::input::AnyArray;
use rayon::prelude::*;

use crate::detach::run_detached;
use crate::records::{record_schema, ArrowRecords, PyScoredHands, RecordColumns};
use crate::stream::{fd_file, side_error};

/// Where the file's bytes go: a descriptor of the caller's, or a Python
/// binary stream (one without a descriptor, such as a test's buffer).
enum Output {
    File(std::fs::File),
    Python(Py<PyAny>),
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::File(f) => f.write(buf),
            Output::Python(stream) => Python::attach(|py| {
                stream
                    .call_method1(py, intern!(py, "write"), (PyBytes::new(py, buf),))
                    .map_err(|e| io::Error::other(e.to_string()))?;
                Ok(buf.len())
            }),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::File(f) => f.flush(),
            Output::Python(stream) => Python::attach(|py| {
                stream
                    .call_method0(py, intern!(py, "flush"))
                    .map(drop)
                    .map_err(|e| io::Error::other(e.to_string()))
            }),
        }
    }
}

/// A Parquet error as the I/O error beneath it, when there is one (a full
/// disk, a closed pipe), so that it names the output as any write does.
fn io_error(e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other.to_string()),
        },
        other => io::Error::other(other.to_string()),
    }
}

/// An open Parquet file: its writer, and the factory of each row group's
/// column writers.
struct OpenFile {
    file: SerializedFileWriter<Output>,
    columns: ArrowRowGroupWriterFactory,
    row_groups: usize,
}

impl OpenFile {
    /// `batches` as the next row group, its columns encoded in parallel
    /// (on rayon's pool: encoding is most of the writing), then written in
    /// order and flushed to the output.
    fn write_row_group(
        &mut self,
        schema: &SchemaRef,
        batches: &[RecordBatch],
    ) -> Result<(), ParquetError> {
        let writers = self.columns.create_column_writers(self.row_groups)?;
        // The leaf columns of every batch, in the writers' order.
        let mut leaves: Vec<Vec<_>> = writers.iter().map(|_| Vec::new()).collect();
        for batch in batches {
            let mut slots = leaves.iter_mut();
            for (field, column) in schema.fields().iter().zip(batch.columns()) {
                for leaf in compute_leaves(field, column)? {
                    slots
                        .next()
                        .ok_or_else(|| ParquetError::General("more leaves than columns".into()))?
                        .push(leaf);
                }
            }
        }
        let chunks: Vec<ArrowColumnChunk> = writers
            .into_par_iter()
            .zip(leaves)
            .map(|(mut writer, leaves)| {
                for leaf in &leaves {
                    writer.write(leaf)?;
                }
                writer.close()
            })
            .collect::<Result<_, _>>()?;
        let mut row_group = self.file.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut row_group)?;
        }
        row_group.close()?;
        self.row_groups += 1;
        // The row group reaches the output now (a pipe's reader sees each
        // block as it comes), not when the writer's buffer fills.
        self.file.flush()?;
        Ok(())
    }
}

/// The records of `cardtable score` as a Parquet file: each write is a row
/// group (Snappy-compressed, the schema of `score_record_schema`), and
/// `close` writes the footer. Any Parquet reader (pyarrow, Polars, DuckDB)
/// reads it back.
#[pyclass(name = "ParquetWriter", module = "cardtable._core", frozen)]
pub struct PyParquetWriter {
    /// None once closed.
    writer: Mutex<Option<OpenFile>>,
    schema: SchemaRef,
    name: String,
}

impl PyParquetWriter {
    fn writer(&self) -> io::Result<MutexGuard<'_, Option<OpenFile>>> {
        self.writer
            .lock()
            .map_err(|_| io::Error::other("the Parquet writer failed during an earlier write"))
    }

    /// Writes `batches` as one row group (nothing for no rows).
    fn write_batches(&self, batches: &[RecordBatch]) -> io::Result<()> {
        if batches.iter().all(|b| b.num_rows() == 0) {
            return Ok(());
        }
        let mut guard = self.writer()?;
        let file = guard
            .as_mut()
            .ok_or_else(|| io::Error::other(format!("{} is already closed", self.name)))?;
        file.write_row_group(&self.schema, batches)
            .map_err(io_error)
    }

    /// Arrow data of records as record batches of this file's schema.
    fn batches_of(&self, records: &Bound<'_, PyAny>) -> PyResult<Vec<RecordBatch>> {
        let chunks = match records.cast::<PyScoredHands>() {
            Ok(hands) => hands.get().chunks().to_vec(),
            Err(_) => {
                let data: AnyArray = records.extract()?;
                let reader = data.into_reader()?;
                reader
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| PyTypeError::new_err(e.to_string()))?
            }
        };
        chunks
            .iter()
            .map(|chunk| {
                let Some(columns) = chunk.as_struct_opt() else {
                    return Err(PyTypeError::new_err(format!(
                        "records must be a table or a struct column, not {}",
                        chunk.data_type()
                    )));
                };
                RecordBatch::try_new(self.schema.clone(), columns.columns().to_vec()).map_err(|e| {
                    PyValueError::new_err(format!("not the records of cardtable score: {e}"))
                })
            })
            .collect()
    }
}

#[pymethods]
impl PyParquetWriter {
    /// A Parquet file of records on `output`: an open file descriptor (it
    /// stays the caller's to close) or a binary stream with `write` and
    /// `flush`; `with_file` adds the `file` column. `name` names the output
    /// in errors.
    #[new]
    #[pyo3(signature = (output, with_file = false, name = "the output"))]
    fn new(output: &Bound<'_, PyAny>, with_file: bool, name: &str) -> PyResult<Self> {
        let out = match output.extract::<i32>() {
            Ok(fd) => Output::File(fd_file(fd)?),
            Err(_) => Output::Python(output.clone().unbind()),
        };
        let schema = record_schema(with_file);
        // Every line number and hand text differs: a dictionary of them
        // would only cost (it took a third of the writing time of random
        // hands, for a larger file). The cards, the errors and the file
        // name repeat, and keep theirs.
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_column_dictionary_enabled(ColumnPath::from("line"), false)
            .set_column_dictionary_enabled(ColumnPath::from("hand"), false)
            .build();
        // The Arrow writer lays out the file (its Parquet schema, and the
        // Arrow schema in its metadata); its row groups are written here.
        let (file, columns) = ArrowWriter::try_new(out, schema.clone(), Some(props))
            .and_then(ArrowWriter::into_serialized_writer)
            .map_err(|e| side_error(io_error(e), "output"))?;
        Ok(PyParquetWriter {
            writer: Mutex::new(Some(OpenFile {
                file,
                columns,
                row_groups: 0,
            })),
            schema,
            name: name.to_owned(),
        })
    }

    /// Writes `records` (a `ScoredHands` of the scorer, or any Arrow table
    /// or struct column of the same columns) as a row group. A failed
    /// write is an `OSError` whose `filename` is `"output"`.
    fn write(&self, py: Python<'_>, records: &Bound<'_, PyAny>) -> PyResult<()> {
        let batches = self.batches_of(records)?;
        run_detached(py, None, || self.write_batches(&batches))?
            .map_err(|e| side_error(e, "output"))
    }

    /// Writes the footer: the file is complete, of the row groups written.
    /// Closing again does nothing.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        let writer = self.writer().map_err(|e| side_error(e, "output"))?.take();
        let Some(writer) = writer else {
            return Ok(());
        };
        run_detached(py, None, move || writer.file.close().map(drop))?
            .map_err(|e| side_error(io_error(e), "output"))
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> PyResult<bool> {
        Ok(self
            .writer()
            .map_err(|e| side_error(e, "output"))?
            .is_none())
    }
}

/// The pipeline's blocks written to a Parquet file from its writer thread.
pub struct ParquetSink<'a> {
    pub records: ArrowRecords,
    pub file: &'a PyParquetWriter,
}

impl BlockSink<RecordColumns> for ParquetSink<'_> {
    type Error = io::Error;

    fn write_block(&mut self, block: &mut ScoredBlock<RecordColumns>) -> io::Result<()> {
        let batches = self.records.batches(block).map_err(io::Error::other)?;
        self.file.write_batches(&batches)
    }

    fn close(&mut self) -> io::Result<()> {
        Ok(())
    }
}
